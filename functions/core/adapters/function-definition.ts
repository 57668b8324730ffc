import type { HttpHandler } from '#core/http/http-handler';
import type { IdempotencyRunner } from '#core/http/idempotency/idempotent-requests';
import type { RouteSpec } from '#core/http/route-types';
import type { HandlersFor } from '#core/http/types';
import type { SecretName } from '#core/platform/secret-settings';
import type { Deps } from '#core/ports/deps';
import type { tableDesign } from '#core/store/table';

/**
 * The ports a function's code may use beyond the table, the clock and the hasher. Each has
 * an AWS adapter (core/adapters/<port>/) and a local one (lib/local/); a function gets only
 * the ports it declares, in Lambda (its bundle holds no other client) and in the local
 * runner alike, where using another fails as it would in AWS.
 */
export type PortName = 'mailer' | 'gatewayKeys' | 'deliveryQueue' | 'retryScheduler' | 'webhookSecrets' | 'routeInvoker';

/**
 * The DynamoDB actions a function may take on the table's items; transactions are authorized
 * item by item as these (TransactWriteItems as PutItem, UpdateItem, DeleteItem,
 * ConditionCheckItem; TransactGetItems as GetItem). No Scan: no code scans.
 */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

export type IndexName = (typeof tableDesign.globalIndexes)[number]['indexName'];

/**
 * What a function's code does on the table, which is all its role may do there
 * (lib/constructs/table-grants.ts); test/infra/least-privilege.test.ts derives it from the
 * code and fails when this says more or less.
 */
export interface TableAccess {
  /** Actions on the table itself (its items, and Query on its primary index). */
  table: readonly TableAction[];
  /** The global indexes it queries by name: Query on each, nothing else. */
  indexes?: readonly IndexName[];
}

/** How an entry point builds each port a function declares: once per process, on first use. */
export type PortAdapters<P extends PortName> = { readonly [K in P]: () => Deps[K] };

/**
 * One Lambda function, as its folder declares it in `definition.ts`: what its `index.ts`,
 * the local runner and the CDK stack all read.
 */
export interface FunctionDefinition<P extends PortName = PortName, N extends string = string> {
  /** Its folder under functions/: its bundle and its Lambda. */
  name: N;
  ports: readonly P[];
  /**
   * The generated keys its code reads (core/platform/secret-settings.ts): the stack gives it
   * their ARNs and read access to them alone. The webhook secret keys come with the
   * webhookSecrets port (secretsOf).
   */
  secrets?: readonly Exclude<SecretName, 'webhookSecretKeys'>[];
  /** Megabytes; Lambda gives CPU in proportion (1,769 is one full vCPU). Default 1,024. */
  memorySize?: number;
  /** Default 10 seconds: long enough for any request. */
  timeoutSeconds?: number;
  /** False for a function that never touches the table (the MCP protocol's). */
  table?: false;
  /** The route functions it runs operations in, through the routeInvoker port (the MCP functions). */
  invokes?: readonly string[];
  /** What it does on the table: required unless `table` is false. */
  tableAccess?: TableAccess;
}

/** The methods whose repeats an Idempotency-Key makes safe, on routes that have an owner to key them by. */
type TakesIdempotencyKey<R> = R extends { auth: 'credential'; method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' } ? R : never;

/** The idempotency runner is required exactly where a route takes an Idempotency-Key, so that no other bundle holds Powertools. */
type IdempotencyOf<R> = [TakesIdempotencyKey<R>] extends [never] ? { idempotency?: never } : { idempotency: IdempotencyRunner };

/** A function API Gateway invokes for its routes: the routes, a handler for each, and what they need. */
export type RouteFunctionDefinition<
  R extends RouteSpec = RouteSpec,
  P extends PortName = PortName,
  N extends string = string,
> = FunctionDefinition<P, N> & {
  routes: readonly R[];
  handlers: HandlersFor<R>;
  idempotency?: IdempotencyRunner;
};

export const defineFunction = <const N extends string, const P extends PortName = never>(
  definition: FunctionDefinition<P, N>,
): FunctionDefinition<P, N> => definition;

export const defineRouteFunction = <const N extends string, const R extends RouteSpec, const P extends PortName = never>(
  definition: FunctionDefinition<P, N> & { routes: readonly R[]; handlers: HandlersFor<R> } & IdempotencyOf<R>,
): RouteFunctionDefinition<R, P, N> => definition;

/**
 * A function API Gateway invokes for its routes that serves them with an HTTP handler of its
 * own, over the ports it declares, instead of through dispatch: the MCP protocol's, which
 * holds no table (functions/mcp-protocol/protocol-handler.ts says why).
 */
export type ServingFunctionDefinition<P extends PortName = PortName, N extends string = string> = FunctionDefinition<P, N> & {
  routes: readonly RouteSpec[];
  serve: (ports: { readonly [K in P]: Deps[K] }) => HttpHandler;
};

/** Any route function's definition, as the code that serves every one of them (the runner, the stack) sees it. */
export type AnyRouteFunction<P extends PortName = PortName> = FunctionDefinition<P> & {
  routes: readonly RouteSpec[];
  handlers: object;
  idempotency?: IdempotencyRunner;
};

/** Every key a function reads from Secrets Manager in AWS: those it declares, and the webhook secret keys with their port. */
export const secretsOf = (definition: FunctionDefinition): SecretName[] => [
  ...(definition.secrets ?? []),
  ...((definition.ports as readonly PortName[]).includes('webhookSecrets') ? (['webhookSecretKeys'] as const) : []),
];
