import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import type { Deps } from '#core/ports/deps';
import type { Mailer } from '#core/ports/mailer';
import { type LambdaFunctionName, routeTables } from '#routes';
import { adminHandlers } from '../../functions/admin/handlers.ts';
import { apiKeyHandlers } from '../../functions/api-keys/handlers.ts';
import { authorize } from '../../functions/authorizer/authorize.ts';
import { entitlementHandlers } from '../../functions/entitlements/handlers.ts';
import { handler as fallback } from '../../functions/fallback/index.ts';
import { namespaceHandlers } from '../../functions/namespaces/handlers.ts';
import { oauthHandlers } from '../../functions/oauth/handlers.ts';
import { sessionHandlers } from '../../functions/sessions/handlers.ts';
import { userHandlers } from '../../functions/users/handlers.ts';
import { webhookDeliveryHandlers } from '../../functions/webhook-deliveries/handlers.ts';
import { webhookHandlers } from '../../functions/webhooks/handlers.ts';
import { workspaceHandlers } from '../../functions/workspaces/handlers.ts';
import type { LocalFunctions, ProxyHandler } from './gateway.ts';

/** What the runner knows of itself that the functions need. */
export interface LocalWiring {
  /** Given only to the functions that send mail in AWS too (users, sessions), so that mail from any other fails here as it would there. */
  mailer: Mailer;
  /** Where the runner listens (or PUBLIC_BASE_URL): the base of links in mail. */
  publicBaseUrl: () => string;
}

/** The same function code the Lambda bundles hold, wired to the local runner's dependencies. */
export function localFunctions(deps: Deps, wiring: LocalWiring): LocalFunctions {
  const using = () => deps;
  const mailing = { ...deps, mailer: wiring.mailer };
  const usingMail = () => mailing;
  const { publicBaseUrl } = wiring;
  const idempotency = runIdempotently;
  // `satisfies` makes a function of the registry without handlers here a compile error.
  const routed = {
    workspaces: createFunction({ routes: routeTables.workspaces, handlers: workspaceHandlers, deps: using, publicBaseUrl, idempotency }),
    'api-keys': createFunction({ routes: routeTables['api-keys'], handlers: apiKeyHandlers, deps: using, publicBaseUrl, idempotency }),
    users: createFunction({ routes: routeTables.users, handlers: userHandlers, deps: usingMail, publicBaseUrl, idempotency }),
    sessions: createFunction({ routes: routeTables.sessions, handlers: sessionHandlers, deps: usingMail, publicBaseUrl, idempotency }),
    admin: createFunction({ routes: routeTables.admin, handlers: adminHandlers, deps: using, publicBaseUrl, idempotency }),
    oauth: createFunction({ routes: routeTables.oauth, handlers: oauthHandlers, deps: using, publicBaseUrl }),
    entitlements: createFunction({
      routes: routeTables.entitlements,
      handlers: entitlementHandlers,
      deps: using,
      publicBaseUrl,
      idempotency,
    }),
    namespaces: createFunction({ routes: routeTables.namespaces, handlers: namespaceHandlers, deps: using, publicBaseUrl, idempotency }),
    webhooks: createFunction({ routes: routeTables.webhooks, handlers: webhookHandlers, deps: using, publicBaseUrl, idempotency }),
    'webhook-deliveries': createFunction({
      routes: routeTables['webhook-deliveries'],
      handlers: webhookDeliveryHandlers,
      deps: using,
      publicBaseUrl,
      idempotency,
    }),
  } satisfies Record<LambdaFunctionName, ProxyHandler>;
  return {
    authorizer: (event) => authorize(deps, event),
    fallback,
    routed,
  };
}
