import * as codes from '#core/platform/error-codes';
import { ApiError, EndpointNotFound, InternalError, PayloadTooLarge, Unauthenticated } from '#core/platform/errors';

/**
 * API Gateway answers some requests itself, before any function runs. These are the
 * bodies it gives, in our envelope and with the catalogue's codes: the CDK stack renders
 * them as GatewayResponses with `$context` placeholders, and the local gateway renders them
 * with real values.
 */
export interface GatewayResponseSpec {
  /** API Gateway's response type, e.g. UNAUTHORIZED. */
  type: string;
  error: ApiError;
}

/** API Gateway's own payload limit (a REST API quota, not ours to change). */
export const apiGatewayMaxPayloadBytes = 10 * 1024 * 1024;

/** Stage throttling refills every second. */
const throttleRetrySeconds = 1;

export const gatewayResponses: readonly GatewayResponseSpec[] = [
  // The authorizer itself refused (it passes verdicts on instead, so this is a safety net).
  { type: 'UNAUTHORIZED', error: new Unauthenticated() },
  // A path no resource matches, should the MOCK catch-all at {proxy+} ever miss one.
  { type: 'MISSING_AUTHENTICATION_TOKEN', error: new EndpointNotFound('$context.path') },
  { type: 'ACCESS_DENIED', error: new ApiError(codes.ACCESS_DENIED, 'Access to this resource is denied.') },
  {
    type: 'THROTTLED',
    error: new ApiError(
      codes.RATE_LIMIT_EXCEEDED,
      'Too many requests; slow down and retry after a moment.',
      { retry_after: throttleRetrySeconds },
      {},
      { 'Retry-After': String(throttleRetrySeconds) },
    ),
  },
  // A usage plan's monthly quota: the only one the plans have is api_calls (lib/constructs/tier-usage-plans.ts).
  {
    type: 'QUOTA_EXCEEDED',
    error: new ApiError(codes.QUOTA_EXCEEDED, 'The monthly api_calls quota of this plan is used up.', { quota_type: 'api_calls' }),
  },
  { type: 'REQUEST_TOO_LARGE', error: new PayloadTooLarge(apiGatewayMaxPayloadBytes) },
  { type: 'BAD_REQUEST_BODY', error: new ApiError(codes.INVALID_FORMAT, 'The request body is malformed.') },
  { type: 'INTEGRATION_TIMEOUT', error: new ApiError(codes.GATEWAY_TIMEOUT, 'The request took too long; it may still complete.') },
  { type: 'DEFAULT_4XX', error: new ApiError(codes.BAD_REQUEST, 'The request could not be accepted.') },
  { type: 'DEFAULT_5XX', error: new InternalError() },
];

export const gatewayResponse = (type: string): GatewayResponseSpec => gatewayResponses.find((r) => r.type === type)!;
