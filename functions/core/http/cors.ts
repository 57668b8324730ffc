import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '#core/platform/config';
import { AccessDenied } from '#core/platform/errors';
import { headerValue } from './proxy-event.ts';

/**
 * CORS, off unless CORS_ALLOWED_ORIGINS names origins. Browser scripts authenticate with an
 * API key or token in `Authorization`; credentials (the session cookie) are never allowed
 * cross-origin, so sessions stay first-party and their XSRF defence stays whole.
 */
const exposedHeaders =
  'X-Request-ID, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed, Location';
const allowedRequestHeaders = 'Authorization, Content-Type, Idempotency-Key, X-Workspace-ID, X-Namespace-ID, X-Request-ID';
const preflightMaxAgeSeconds = 600;

/** The Access-Control-Allow-Origin value for this request's Origin, if it is allowed. */
function allowOriginFor(origin: string | undefined): string | undefined {
  const allowed = config().CORS_ALLOWED_ORIGINS;
  if (!origin || !allowed.length) return undefined;
  if (allowed.includes('*')) return '*';
  return allowed.includes(origin) ? origin : undefined;
}

/** Headers every response carries while CORS is on: the grant for an allowed Origin, and Vary for caches. */
export function corsHeaders(event: Pick<APIGatewayProxyEvent, 'headers'>): Record<string, string> {
  if (!config().CORS_ALLOWED_ORIGINS.length) return {};
  const allowOrigin = allowOriginFor(headerValue(event, 'origin'));
  return { Vary: 'Origin', ...(allowOrigin ? originGrant(allowOrigin) : {}) };
}

/** The grant of an allowed origin on an answer that is not a preflight. */
export const originGrant = (allowOrigin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': allowOrigin,
  'Access-Control-Expose-Headers': exposedHeaders,
});

/** The refusal of a preflight from an origin not allowed: it says where the operator allows one. */
export const originRefused = (origin: string) =>
  new AccessDenied(
    `Cross-origin requests from ${origin.slice(0, 200)} are not allowed; the operator lists allowed origins in CORS_ALLOWED_ORIGINS.`,
  );

/** A browser's preflight: OPTIONS with the method it wants to send. */
export const isPreflight = (event: Pick<APIGatewayProxyEvent, 'httpMethod' | 'headers'>) =>
  event.httpMethod === 'OPTIONS' &&
  headerValue(event, 'origin') !== undefined &&
  headerValue(event, 'access-control-request-method') !== undefined;

/** The answer to a preflight for a path that serves `methods`; a refused origin is a 403 that says why. */
export function preflightAnswer(
  event: Pick<APIGatewayProxyEvent, 'headers'>,
  methods: readonly string[],
  requestId: string,
): APIGatewayProxyResult {
  const origin = headerValue(event, 'origin')!;
  const allowOrigin = allowOriginFor(origin);
  if (!allowOrigin) throw originRefused(origin);
  return originPreflight(allowOrigin, methods, requestId);
}

/** The answer to a preflight from an allowed origin (`allowOrigin`: that origin, or `*`). */
export function originPreflight(allowOrigin: string, methods: readonly string[], requestId: string): APIGatewayProxyResult {
  return {
    statusCode: 204,
    headers: {
      'Access-Control-Allow-Origin': allowOrigin,
      'Access-Control-Allow-Methods': methods.join(', '),
      'Access-Control-Allow-Headers': allowedRequestHeaders,
      'Access-Control-Max-Age': String(preflightMaxAgeSeconds),
      Vary: 'Origin',
      'X-Request-ID': requestId,
    },
    body: '',
  };
}

/**
 * A public tracker's routes (RouteSpec `cors: 'any-origin'`): every site's pages call them
 * with no credential, so any Origin is granted. Never with credentials, so no cookie of
 * the service's own origin rides along.
 */
export const anyOriginHeaders = (): Record<string, string> => ({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': exposedHeaders,
});

/** The preflight answer of a path whose routes all take any origin: what a tracker's JSON POST needs. */
export const anyOriginPreflight = (methods: readonly string[], requestId: string): APIGatewayProxyResult => ({
  statusCode: 204,
  headers: {
    ...anyOriginHeaders(),
    'Access-Control-Allow-Methods': methods.join(', '),
    'Access-Control-Allow-Headers': 'Content-Type',
    'Access-Control-Max-Age': String(preflightMaxAgeSeconds),
    'X-Request-ID': requestId,
  },
  body: '',
});
