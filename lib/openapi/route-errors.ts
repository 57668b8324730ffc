import * as z from 'zod/mini';
import { takesIdempotencyKey } from '#core/http/idempotency/idempotent-routes';
import type { Route } from '#core/http/route-types';
import { type ErrorCode, type ErrorEntry, errorCatalogue } from '#core/platform/error-catalogue';
import { routes } from '#routes';

const requiredParameters = (query: z.ZodMiniObject): string[] =>
  (z.toJSONSchema(query, { io: 'input', unrepresentable: 'any' }) as { required?: string[] }).required ?? [];

const oauthRefusals = (Object.entries(errorCatalogue) as [ErrorCode, ErrorEntry][])
  .filter(([, entry]) => entry.oauth)
  .map(([code]) => code);

/**
 * The error codes a route can answer, from what the route table says of it; openapi.yaml
 * declares each at its status. Where a property cannot tell two routes apart, both declare
 * the code (a public route with a body may refuse a login or be closed).
 */
export function errorCodesOf(route: Route): ErrorCode[] {
  const codes: ErrorCode[] = [
    'INVALID_FORMAT', // a body that is sent is parsed, whatever the route
    'METHOD_NOT_ALLOWED', // the same path with another method
    'PAYLOAD_TOO_LARGE', // checked before anything else, on every route
    'VALIDATION_FAILED', // an unknown query parameter is refused on every route
    'RATE_LIMIT_EXCEEDED', // API Gateway's stage throttling, besides a credential's allowance and failed logins
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE', // the table throttling past the SDK's retries, or out of reach
    'GATEWAY_TIMEOUT',
  ];
  if (!route.platformAdmin) codes.push('MAINTENANCE_MODE'); // the operator's switch spares the platform admin routes
  if (route.auth === 'credential') {
    // QUOTA_EXCEEDED: the workspace's monthly api_calls, metered by the authorizer (and API Gateway's plan quota).
    codes.push('UNAUTHENTICATED', 'INVALID_API_KEY', 'TOKEN_EXPIRED', 'ACCESS_DENIED', 'QUOTA_EXCEEDED');
    if (route.scope) codes.push('INSUFFICIENT_PERMISSIONS');
    if (!route.allowSuspended) codes.push('WORKSPACE_SUSPENDED');
    if (!route.allowSuspended && !route.allowUnpaid) codes.push('PAYMENT_REQUIRED');
    if (route.limitsConcurrency) codes.push('CONCURRENT_LIMIT_EXCEEDED');
  }
  if (route.function === 'oauth') codes.push(...oauthRefusals);
  else if (route.auth === 'none' && route.body) codes.push('INVALID_CREDENTIALS', 'ACCESS_DENIED');
  if (route.params) codes.push('RESOURCE_NOT_FOUND');
  if (route.query && requiredParameters(route.query).length) codes.push('MISSING_PARAMETER');
  // A body of another kind than the route takes (an array for an object); none at all where `{}` would not do.
  if (route.body && route.bodyFormat !== 'form') codes.push('INVALID_TYPE');
  if (route.body && !route.body.safeParse({}).success) codes.push('MISSING_PARAMETER');
  if (route.enabledBy) codes.push('ENDPOINT_NOT_FOUND');
  if (route.method !== 'GET') codes.push('DUPLICATE_RESOURCE', 'STATE_CONFLICT');
  if (takesIdempotencyKey(route)) codes.push('RESOURCE_LOCKED'); // a repeat while the first is running
  codes.push(...(route.errors ?? []));
  // Whatever an operation it runs may answer; the MCP tools are the credential routes.
  if (route.runsOperations) {
    for (const run of (routes as readonly Route[]).filter((r) => r.auth === 'credential' && !r.runsOperations))
      codes.push(...errorCodesOf(run));
  }
  return [...new Set(codes)];
}
