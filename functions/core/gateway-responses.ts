import { ApiError, EndpointNotFound, InternalError, Unauthenticated } from './errors.ts';

/**
 * API Gateway answers some requests itself, before any function runs. These are the
 * bodies it gives, in our envelope: the CDK stack renders them as GatewayResponses with
 * `$context` placeholders, and the local gateway renders them with real values.
 */
export interface GatewayResponseSpec {
  /** API Gateway's response type, e.g. UNAUTHORIZED. */
  type: string;
  error: ApiError;
}

export const gatewayResponses: readonly GatewayResponseSpec[] = [
  // The authorizer itself refused (it passes verdicts on instead, so this is a safety net).
  { type: 'UNAUTHORIZED', error: new Unauthenticated() },
  // A path no resource matches, should the {proxy+} fallback ever miss one.
  { type: 'MISSING_AUTHENTICATION_TOKEN', error: new EndpointNotFound('$context.path') },
  { type: 'ACCESS_DENIED', error: new ApiError(403, 'access_denied', 'ACCESS_DENIED', 'Access to this resource is denied.') },
  { type: 'THROTTLED', error: new ApiError(429, 'rate_limit_exceeded', 'RATE_LIMIT_EXCEEDED', 'Too many requests; slow down and retry after a moment.') },
  { type: 'QUOTA_EXCEEDED', error: new ApiError(429, 'quota_exceeded', 'QUOTA_EXCEEDED', 'The usage quota of this plan is used up.') },
  { type: 'REQUEST_TOO_LARGE', error: new ApiError(413, 'bad_request', 'PAYLOAD_TOO_LARGE', 'The request is too large.') },
  { type: 'BAD_REQUEST_BODY', error: new ApiError(400, 'bad_request', 'INVALID_FORMAT', 'The request body is malformed.') },
  { type: 'INTEGRATION_TIMEOUT', error: new ApiError(504, 'server_error', 'GATEWAY_TIMEOUT', 'The request took too long; it may still complete.') },
  { type: 'DEFAULT_4XX', error: new ApiError(400, 'bad_request', 'BAD_REQUEST', 'The request could not be accepted.') },
  { type: 'DEFAULT_5XX', error: new InternalError() },
];

export const gatewayResponse = (type: string): GatewayResponseSpec => gatewayResponses.find((r) => r.type === type)!;
