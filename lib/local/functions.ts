import { unwiredPorts } from '#core/adapters/create-deps';
import type { PortName } from '#core/adapters/function-definition';
import { operationsOf } from '#core/http/dispatch';
import { type HttpHandler, httpHandler, unmatchedHandler } from '#core/http/http-handler';
import type { Deps } from '#core/ports/deps';
import type { Mailer } from '#core/ports/mailer';
import type { RouteInvoker } from '#core/ports/route-invoker';
import { routes } from '#routes';
import { authorize } from '../../functions/authorizer/authorize.ts';
import { routeFunctions } from '../../functions/definitions.ts';
import { docsFunction } from '../../functions/docs/definition.ts';
import { docsHandler } from '../../functions/docs/handlers.ts';
import { isDocsPath } from '../../functions/docs/routes.ts';
import type { LambdaFunctionName } from '../../functions/routes.ts';
import type { LocalFunctions } from './gateway.ts';

/** What the runner knows of itself that the functions need. */
export interface LocalWiring {
  /** The runner's mailer (`.eml` files unless overridden). */
  mailer: Mailer;
  /** Where the runner listens (or PUBLIC_BASE_URL): the base of links in mail. */
  publicBaseUrl: () => string;
}

/**
 * A function's dependencies in the runner: the runner's own, with only the ports its
 * definition declares, as in Lambda; using another fails here as it would there. Every
 * function shares the runner's gateway keys, whose shared keys the authorizer reads.
 */
function depsFor(ports: readonly PortName[], deps: Deps, mailer: Mailer, routeInvoker: RouteInvoker): Deps {
  const local = {
    mailer,
    deliveryQueue: deps.deliveryQueue,
    retryScheduler: deps.retryScheduler,
    webhookSecrets: deps.webhookSecrets,
    routeInvoker,
  };
  const given = Object.fromEntries(
    (Object.keys(unwiredPorts) as (keyof typeof unwiredPorts)[]).map((port) => [
      port,
      ports.includes(port) ? local[port] : unwiredPorts[port],
    ]),
  );
  return { ...deps, ...given };
}

/** The same function code the Lambda bundles hold, from the same definitions, wired to the local runner's dependencies. */
export function localFunctions(deps: Deps, wiring: LocalWiring): LocalFunctions {
  const routeInvoker: RouteInvoker = {
    invoke: async (name, event) => JSON.stringify(await routed[name as LambdaFunctionName](JSON.parse(event))),
  };
  const routed = Object.fromEntries(
    Object.entries(routeFunctions).map(([name, definition]) => {
      const own = depsFor(definition.ports, deps, wiring.mailer, routeInvoker);
      const handler =
        'serve' in definition
          ? definition.serve(own)
          : httpHandler({
              operations: operationsOf(definition),
              deps: () => own,
              publicBaseUrl: wiring.publicBaseUrl,
              idempotency: definition.idempotency,
            });
      return [name, handler];
    }),
  ) as Record<LambdaFunctionName, HttpHandler>;
  const unmatched = unmatchedHandler(routes);
  // API Gateway sends the documentation's paths to the docs function (lib/constructs/docs-routes.ts); here they reach the fallback, which hands them on.
  const docs = docsHandler({
    deps: () => depsFor(docsFunction.ports, deps, wiring.mailer, routeInvoker),
    publicBaseUrl: wiring.publicBaseUrl,
  });
  const fallback: HttpHandler = (event) => (isDocsPath(event.path) ? docs(event) : unmatched(event));
  return { authorizer: (event) => authorize(deps, event), fallback, routed };
}
