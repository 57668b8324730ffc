import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Principal } from '#core/access/principal';
import { refuseDuringMaintenance } from '#core/operations/maintenance';
import { config } from '#core/platform/config';
import { EndpointNotFound, MethodNotAllowed } from '#core/platform/errors';
import type { Telemetry } from '#core/platform/telemetry';
import type { Deps } from '#core/ports/deps';
import { admittedPrincipal, decodeVerdict } from './authorizer-context.ts';
import { anyOriginHeaders, anyOriginPreflight, isPreflight, preflightAnswer } from './cors.ts';
import { type DispatchResult, dispatch, isEnabled, type Operation } from './dispatch.ts';
import { errorAnswer } from './error-answer.ts';
import { httpAnswer } from './http-answer.ts';
import type { IdempotencyRunner } from './idempotency/idempotent-requests.ts';
import { absoluteUrl, publicBaseUrl, requestIdOf } from './proxy-event.ts';
import { logRequest } from './request-log.ts';
import { assertBodySize, bodyOf, parametersOf } from './request-parts.ts';
import { matchRoute, routeMethodOf } from './route-match.ts';
import { type RouteSpec, routePath } from './route-types.ts';

export type HttpHandler = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

export interface HttpOptions {
  /** The operations this handler serves: one function's routes with their handlers. */
  operations: readonly Operation[];
  deps: () => Deps;
  /** Where clients reach the service, when the process knows better than PUBLIC_BASE_URL (the local runner). */
  publicBaseUrl?: () => string;
  idempotency?: IdempotencyRunner;
  /** Where the request log goes: the process's logger and metrics unless given. */
  telemetry?: () => Telemetry;
}

/** A request as it arrived: when, and the id every answer and log line names (read once). */
interface Arrival {
  startedAt: number;
  event: APIGatewayProxyEvent;
  requestId: string;
}

const arrivalOf = (event: APIGatewayProxyEvent): Arrival => ({ startedAt: performance.now(), event, requestId: requestIdOf(event) });

/** Logs and answers: HEAD gets GET's headers without the body; a route that takes any origin grants it on every answer, refusals included. */
function answered(
  arrival: Arrival,
  result: DispatchResult,
  principal?: Principal,
  sink?: () => Telemetry,
  route?: RouteSpec,
): APIGatewayProxyResult {
  const { event, requestId } = arrival;
  logRequest({ ...arrival, status: result.status, principal, actedIn: result.actedIn, error: result.error }, sink);
  const granted = route?.cors === 'any-origin' ? { ...result, headers: { ...anyOriginHeaders(), ...result.headers } } : result;
  const answer = httpAnswer(event, requestId, granted, principal);
  return event.httpMethod === 'HEAD' ? { ...answer, body: '' } : answer;
}

/**
 * The HTTP side of a function: finds the operation from API Gateway's resource, takes the
 * authorizer's verdict on the credential, and dispatches the call, reading the body and the
 * parameters from the event. The Lambda adapter and the local gateway both call this.
 */
export function httpHandler(options: HttpOptions): HttpHandler {
  const prefix = config().API_PREFIX;
  const owned = new Map(
    options.operations.map((operation) => [`${operation.route.method} ${routePath(operation.route, prefix)}`, operation]),
  );
  return async (event) => {
    const arrival = arrivalOf(event);
    // Read first: every answer to a credential the authorizer admitted (and counted) carries
    // its rate limit, a refusal before dispatch (413, a switched-off route's 404) included.
    let principal = admittedPrincipal(event.requestContext.authorizer);
    const operation = owned.get(`${routeMethodOf(event.httpMethod)} ${event.resource}`);
    try {
      assertBodySize(event);
      // A route whose feature is switched off does not exist: no credential is asked for.
      if (!operation || !isEnabled(operation.route)) throw new EndpointNotFound(event.path);
      const { route } = operation;
      const deps = options.deps();
      // Before the credential: while the service is down, no request but a platform admin's is looked at.
      await refuseDuringMaintenance(deps, route);
      if (route.auth === 'credential') principal ??= decodeVerdict(event.requestContext.authorizer);
      const result = await dispatch(
        operation,
        { path: event.path, body: () => bodyOf(route, event), parameters: () => parametersOf(event) },
        {
          principal,
          deps,
          idempotency: options.idempotency,
          origin: {
            requestId: arrival.requestId,
            sourceIp: event.requestContext.identity.sourceIp,
            url: absoluteUrl(event),
            baseUrl: publicBaseUrl(event, options.publicBaseUrl),
          },
        },
      );
      return answered(arrival, result, principal, options.telemetry, route);
    } catch (error) {
      return answered(arrival, { ...errorAnswer(error, arrival.requestId), error }, principal, options.telemetry, operation?.route);
    }
  };
}

/**
 * Answers what no route does: API Gateway sends here every method a resource does not
 * define (405 with Allow, or a CORS preflight's answer) and every path no resource
 * matches (404 with requested_path).
 */
export function unmatchedHandler(routes: readonly RouteSpec[]): HttpHandler {
  return async (event) => {
    const arrival = arrivalOf(event);
    try {
      assertBodySize(event);
      const found = matchRoute(routes, event.httpMethod, event.path, config().API_PREFIX);
      if (found.kind === 'wrong-method' && isPreflight(event)) {
        const answer = found.routes.every((route) => route.cors === 'any-origin')
          ? anyOriginPreflight(found.allowed, arrival.requestId)
          : preflightAnswer(event, found.allowed, arrival.requestId);
        logRequest({ ...arrival, status: answer.statusCode });
        return answer;
      }
      if (found.kind === 'wrong-method') throw new MethodNotAllowed(event.httpMethod, event.path, found.allowed);
      throw new EndpointNotFound(event.path);
    } catch (error) {
      return answered(arrival, { ...errorAnswer(error, arrival.requestId), error });
    }
  };
}
