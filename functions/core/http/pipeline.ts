import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import * as z from 'zod/mini';
import { requireUnboundCredential } from '#core/access/issuance-limits';
import type { Principal } from '#core/access/principal';
import { grants } from '#core/access/scopes';
import type { IdempotencyRunner } from '#core/http/idempotency/idempotent-requests';
import { idempotentRequestOf, takesIdempotencyKey } from '#core/http/idempotency/idempotent-routes';
import { config } from '#core/platform/config';
import { AccessDenied, EndpointNotFound, InsufficientPermissions } from '#core/platform/errors';
import { validate } from '#core/platform/validation';
import type { Deps } from '#core/ports/deps';
import { requirePlatformAdmin } from '#core/workspaces/suspension';
import { resolveWorkspace } from './acting-workspace.ts';
import { decodeVerdict } from './authorizer-context.ts';
import { envelopeMiddleware, headerValue, htmlResponse, jsonResponse, requestIdOf } from './envelope-middleware.ts';
import { formFields } from './form-body.ts';
import { singleValuedQuery } from './query.ts';
import { actsIn, requestLog } from './request-log.ts';
import { routeMethodOf } from './route-match.ts';
import { type CredentialRoute, type RouteSpec, routePath } from './route-types.ts';
import { assertStrictJson } from './strict-json.ts';
import type { ApiRequest, HandlersFor, RouteHandler } from './types.ts';
import { assertUnicodeParameters, bodyText } from './unicode-text.ts';

type Handler = middy.MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult>;

const noParams = z.object({});
const noQuery = z.strictObject({});

/**
 * Bodies are parsed only where a client sent one, so a bare POST (rotate, test) needs none:
 * as JSON, or as form fields for routes that take a form; either must be UTF-8, and JSON
 * strict (strict-json.ts). Without a route, the dispatcher answers 404 whatever the body.
 */
function bodyWhenPresent(routeOf: (event: APIGatewayProxyEvent) => RouteSpec | undefined): middy.MiddlewareObj<APIGatewayProxyEvent> {
  const jsonParser = httpJsonBodyParser();
  return {
    before: async (request) => {
      const route = routeOf(request.event);
      if (!route) return;
      const event = request.event as { body: unknown };
      if (event.body === null || event.body === '') {
        // No body at all reads as an empty object, so a missing field is named as such.
        event.body = undefined;
        return;
      }
      if (route.bodyFormat === 'form') {
        event.body = formFields(request.event as APIGatewayProxyEvent & { body: string });
        return;
      }
      const text = bodyText(request.event as APIGatewayProxyEvent & { body: string });
      request.event.body = text;
      request.event.isBase64Encoded = false;
      // Header names arrive as the client wrote them and media types are case-insensitive;
      // the parser looks for two spellings of one and one spelling of the other.
      const contentType = headerValue(request.event, 'content-type');
      if (contentType) request.event.headers = { ...request.event.headers, 'content-type': contentType.toLowerCase() };
      await jsonParser.before!(request as never);
      assertStrictJson(text);
    },
  };
}

function absoluteUrl(event: APIGatewayProxyEvent): URL {
  const proto = headerValue(event, 'x-forwarded-proto') === 'http' ? 'http' : 'https';
  const path = event.requestContext.path ?? event.path;
  let url: URL;
  try {
    url = new URL(`${proto}://${headerValue(event, 'host') ?? event.requestContext.domainName}${path}`);
  } catch {
    // A Host header no URL can hold (only possible locally: API Gateway sets its own).
    url = new URL(`${proto}://${event.requestContext.domainName ?? 'localhost'}${path}`);
  }
  for (const [key, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    for (const value of values ?? []) url.searchParams.append(key, value);
  }
  return url;
}

/**
 * The base of links in mail: what the process was given (the local runner: its own origin),
 * else configured, else where API Gateway says this API lives; never the client's Host header.
 */
const publicBaseUrl = (event: APIGatewayProxyEvent, given: (() => string) | undefined) =>
  given?.() ?? config().PUBLIC_BASE_URL ?? `https://${event.requestContext.domainName}/${event.requestContext.stage}`;

const lowerCaseHeaders = (event: APIGatewayProxyEvent) =>
  Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v ?? '']));

/** The authorizer's principal, if the route lets its credential type and scopes in. */
function authorizedPrincipal(route: CredentialRoute, event: APIGatewayProxyEvent): Principal {
  const principal = decodeVerdict(event.requestContext.authorizer);
  if (route.credentials && !route.credentials.includes(principal.credential.type)) {
    throw new AccessDenied(`This endpoint takes ${route.credentials.join(' or ').replaceAll('_', ' ')} credentials.`);
  }
  if (!grants(principal.scopes, route.scope)) {
    throw new InsufficientPermissions(route.scope, principal.scopes);
  }
  if (principal.environment === 'test' && route.method !== 'GET' && !route.keepsEnvironmentsApart) {
    throw new AccessDenied(
      'Test keys cannot change live data: workspaces, members, invitations and accounts have no test mode. Use a live key; a test key changes only test records (its test keys, test webhook endpoints, test usage).',
    );
  }
  return principal;
}

const principals = new WeakMap<APIGatewayProxyEvent, Principal>();

/** Before the body is parsed, so that a refused credential is answered before a bad body. */
function credentialCheck(routeOf: (event: APIGatewayProxyEvent) => RouteSpec | undefined): middy.MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: async ({ event }) => {
      const route = routeOf(event);
      if (route?.auth === 'credential') principals.set(event, authorizedPrincipal(route, event));
    },
  };
}

/**
 * Builds the Lambda handler of one function from its own route table: the middy stack
 * around a dispatcher that finds the route from the API Gateway resource, checks the
 * credential and its scope, validates path, query and body, resolves the workspace, and
 * calls the route's handler.
 */
export function createFunction<R extends RouteSpec>(options: {
  routes: readonly R[];
  handlers: HandlersFor<R>;
  deps: () => Deps;
  /** Where clients reach the service, when the process knows better than PUBLIC_BASE_URL (the local runner). */
  publicBaseUrl?: () => string;
  /**
   * Runs a request once per Idempotency-Key (http/idempotency/idempotent-requests.ts): required
   * where a route takes the key, and given only there, so that no other bundle holds Powertools.
   */
  idempotency?: IdempotencyRunner;
}): Handler {
  const { idempotency } = options;
  if (!idempotency && options.routes.some(takesIdempotencyKey)) {
    throw new Error(
      'A function with routes that take an Idempotency-Key needs the idempotency runner (createFunction option idempotency).',
    );
  }
  const prefix = config().API_PREFIX;
  const owned = new Map<string, RouteSpec>();
  for (const route of options.routes) owned.set(`${route.method} ${routePath(route, prefix)}`, route);
  const handlers = options.handlers as unknown as Record<string, RouteHandler<RouteSpec>>;
  // A route whose feature is switched off does not exist.
  const routeOf = (event: APIGatewayProxyEvent) => {
    const route = owned.get(`${routeMethodOf(event.httpMethod)} ${event.resource}`);
    return route && (!route.enabledBy || config()[route.enabledBy]) ? route : undefined;
  };

  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(requestLog())
    .use(envelopeMiddleware())
    .use(credentialCheck(routeOf))
    .use(bodyWhenPresent(routeOf))
    .handler(async (event) => {
      const route = routeOf(event);
      if (!route) throw new EndpointNotFound(event.path);
      const principal = principals.get(event);
      const deps = options.deps();
      // Before validation, so that a non-admin learns nothing of what the route accepts.
      if (route.platformAdmin) {
        // An OAuth token acts in its client's workspace alone; these reach any, and what they change outlives it.
        requireUnboundCredential(principal!, "use the platform admin's routes");
        await requirePlatformAdmin(deps, principal!.userId);
      }
      assertUnicodeParameters(event);
      const params = validate(route.params ?? noParams, event.pathParameters ?? {}, 'path');
      const query = validate(route.query ?? noQuery, singleValuedQuery(event), 'query');
      const body = route.body ? validate(route.body, event.body === undefined ? {} : event.body, 'body') : undefined;
      const headers = lowerCaseHeaders(event);
      const named = headers['x-workspace-id'] || (query as { workspace_id?: string }).workspace_id;
      const request: ApiRequest = {
        route,
        params,
        query,
        body,
        headers,
        principal,
        workspaceId: principal ? actsIn(event, await resolveWorkspace(deps, principal, named, route.allowSuspended)) : undefined,
        sourceIp: event.requestContext.identity.sourceIp,
        requestId: requestIdOf(event),
        url: absoluteUrl(event),
        baseUrl: publicBaseUrl(event, options.publicBaseUrl),
      } as ApiRequest;
      const handle = () => handlers[route.operationId]!(request, deps);
      const idempotent = idempotentRequestOf({
        route,
        path: event.path,
        headers,
        query: singleValuedQuery(event),
        workspaceId: request.workspaceId,
        body: event.body,
        owner: principal,
      });
      const response = idempotent && idempotency ? await idempotency(deps.db, idempotent, handle) : await handle();
      const answer =
        response.html === undefined
          ? jsonResponse(event, response.status, response.body, response.headers, response.cookies)
          : htmlResponse(event, response.status, response.html, response.headers);
      return event.httpMethod === 'HEAD' ? { ...answer, body: '' } : answer;
    });
}
