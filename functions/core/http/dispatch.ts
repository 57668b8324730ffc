import * as z from 'zod/mini';
import { requireUnboundCredential } from '#core/access/issuance-limits';
import type { Principal } from '#core/access/principal';
import { grants } from '#core/access/scopes';
import { withConcurrencyLease } from '#core/metering/concurrency-leases';
import { config } from '#core/platform/config';
import { AccessDenied, EndpointNotFound, InsufficientPermissions, Unauthenticated } from '#core/platform/errors';
import { validate, validateBody } from '#core/platform/validation';
import type { Deps } from '#core/ports/deps';
import { requirePlatformAdmin } from '#core/users/users';
import { resolveWorkspace } from './acting-workspace.ts';
import { errorAnswer } from './error-answer.ts';
import type { IdempotencyRunner } from './idempotency/idempotent-requests.ts';
import { idempotentRequestOf } from './idempotency/idempotent-routes.ts';
import type { CredentialRoute, RouteSpec } from './route-types.ts';
import type { ApiRequest, ApiResponse, RouteHandler } from './types.ts';

/** A route with its handler: what dispatch runs. */
export interface Operation<R extends RouteSpec = RouteSpec> {
  route: R;
  handle: RouteHandler<R>;
}

/**
 * A route with its handler. A handler takes its own route's request, which the type system
 * cannot follow from a route to the union of every route dispatch serves.
 */
export const operationOf = <R extends RouteSpec>(route: R, handle: RouteHandler<R>): Operation => ({
  route,
  handle: handle as unknown as RouteHandler<RouteSpec>,
});

/** A function's routes, each with its handler by operation id (defineRouteFunction checked each pair). */
export const operationsOf = (definition: { routes: readonly RouteSpec[]; handlers: object }): Operation[] =>
  definition.routes.map((route) =>
    operationOf(route, (definition.handlers as Record<string, RouteHandler<RouteSpec>>)[route.operationId]!),
  );

/** Path parameters, the query (one value each) and the headers (names lower-cased), as strings. */
export interface CallParameters {
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  headers: Record<string, string>;
}

/**
 * What an operation is called with. The body and the parameters are read when dispatch
 * reaches them, so that a transport which decodes them from bytes (HTTP) refuses in the
 * same order as every other caller: the credential first, then the body, then the platform
 * admin check, then the parameters.
 */
export interface OperationCall {
  /** The path called: named by a 404 when the route's feature is off, and part of an Idempotency-Key's request. */
  path: string;
  body(): unknown;
  parameters(): CallParameters;
}

/** A call made in-process (a batch's operation, an MCP tool), with its values at hand. */
export const callWith = ({ path, body, ...parameters }: CallParameters & { path: string; body?: unknown }): OperationCall => ({
  path,
  body: () => body,
  parameters: () => parameters,
});

/** Where a call comes from: what handlers need of the request that carried it. */
export interface CallOrigin {
  requestId: string;
  /** The client's address, as the gateway saw it. */
  sourceIp: string;
  /** The absolute URL the client called, for list links. */
  url: URL;
  /** The service's public base URL, for links in mail. */
  baseUrl: string;
}

export interface DispatchContext {
  /** The caller's credential as the authorizer established it; none on public routes. */
  principal: Principal | undefined;
  deps: Deps;
  origin: CallOrigin;
  /** Runs a request once per Idempotency-Key: given where a route takes one, so that no other bundle holds Powertools. */
  idempotency?: IdempotencyRunner;
}

/** An operation's answer, with what the caller's log needs: the workspace it acted in, and the error it ended in. */
export interface DispatchResult extends ApiResponse {
  actedIn?: string;
  error?: unknown;
}

/** A route whose feature is switched off does not exist (404), for every caller. */
export const isEnabled = (route: RouteSpec): boolean => !route.enabledBy || config()[route.enabledBy];

const noParams = z.object({});
const noQuery = z.strictObject({});

/**
 * The route's credential check: the credential types it takes, its scope, and test mode
 * (docs/decisions.md): a test key changes only records that carry the environment.
 */
function admit(route: RouteSpec, principal: Principal | undefined): Principal | undefined {
  if (route.auth !== 'credential') return undefined;
  if (!principal) throw new Unauthenticated();
  if (route.credentials && !route.credentials.includes(principal.credential.type)) {
    throw new AccessDenied(`This endpoint takes ${route.credentials.join(' or ').replaceAll('_', ' ')} credentials.`);
  }
  if (!grants(principal.scopes, route.scope)) throw new InsufficientPermissions(route.scope, principal.scopes);
  refuseLiveChangeByTestKey(route, principal);
  return principal;
}

/** Test mode (docs/decisions.md): a test key changes only records that carry the environment; on any other change, 403. */
export function refuseLiveChangeByTestKey(route: Pick<CredentialRoute, 'method' | 'keepsEnvironmentsApart'>, principal: Principal): void {
  if (principal.environment === 'test' && route.method !== 'GET' && !route.keepsEnvironmentsApart) {
    throw new AccessDenied(
      'Test keys cannot change live data: workspaces, members, invitations and accounts have no test mode. Use a live key; a test key changes only test records (its test keys, test webhook endpoints, test usage).',
    );
  }
}

/**
 * Runs an operation as HTTP does for every caller (the Lambda adapter, the local gateway, a
 * batch, an MCP tool), so that each meets the same checks in the same order. Refusals and
 * faults come back as the envelope with their status, never as a throw.
 */
export async function dispatch(operation: Operation, call: OperationCall, context: DispatchContext): Promise<DispatchResult> {
  const { route } = operation;
  const { deps, origin } = context;
  let actedIn: string | undefined;
  try {
    if (!isEnabled(route)) throw new EndpointNotFound(call.path);
    const principal = admit(route, context.principal);
    const sent = call.body();
    // Before validation, so that a non-admin learns nothing of what the route accepts.
    if (route.auth === 'credential' && route.platformAdmin) {
      // An OAuth token acts in its client's workspace alone; these reach any, and what they change outlives it.
      requireUnboundCredential(principal!, "use the platform admin's routes");
      await requirePlatformAdmin(deps, principal!.userId);
    }
    const { params, query, headers } = call.parameters();
    const checked = {
      params: validate(route.params ?? noParams, params, 'path'),
      query: validate(route.query ?? noQuery, query, 'query'),
      body: route.body ? validateBody(route.body, sent) : undefined,
    };
    // From the checked query: a route whose query schema drops workspace_id takes no workspace from it.
    const named = headers['x-workspace-id'] || (checked.query as { workspace_id?: string }).workspace_id;
    const request = {
      route,
      ...checked,
      headers,
      principal,
      workspaceId: principal ? (actedIn = await resolveWorkspace(deps, principal, named, route)) : undefined,
      ...origin,
    } as ApiRequest;
    const run = () => operation.handle(request as never, deps);
    // An MCP tool call holds its slot already for the operation it runs (a batch): no second one.
    const leased = route.auth === 'credential' && route.limitsConcurrency && !principal!.holdsConcurrencySlot;
    const handle = leased ? () => withConcurrencyLease(deps, principal!, run) : run;
    const idempotent = idempotentRequestOf({ route, path: call.path, headers, query, workspaceId: actedIn, body: sent, owner: principal });
    if (idempotent && !context.idempotency)
      throw new Error(`${route.operationId} takes an Idempotency-Key, but no idempotency runner was given.`);
    const response = idempotent ? await context.idempotency!(deps.db, idempotent, handle) : await handle();
    return { ...response, actedIn };
  } catch (error) {
    return { ...errorAnswer(error, origin.requestId), actedIn, error };
  }
}
