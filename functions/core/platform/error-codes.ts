/**
 * Every error code the service or API Gateway answers with: variant C's uppercase code, its
 * status and variant A's lowercase code, each an ErrorIdentity the error classes hand to
 * ApiError. What each means and carries is in error-catalogue.ts, which no function
 * bundles. One constant per code, so that a bundle keeps only the codes it throws.
 */
export const INVALID_FORMAT = { status: 400, code: 'bad_request', errorCode: 'INVALID_FORMAT' } as const;
export const MISSING_PARAMETER = { status: 400, code: 'bad_request', errorCode: 'MISSING_PARAMETER' } as const;
export const INVALID_TYPE = { status: 400, code: 'bad_request', errorCode: 'INVALID_TYPE' } as const;
export const BAD_REQUEST = { status: 400, code: 'bad_request', errorCode: 'BAD_REQUEST' } as const;
export const CANNOT_RETRY = { status: 400, code: 'cannot_retry', errorCode: 'CANNOT_RETRY' } as const;
export const UNAUTHENTICATED = { status: 401, code: 'unauthorized', errorCode: 'UNAUTHENTICATED' } as const;
export const INVALID_API_KEY = { status: 401, code: 'unauthorized', errorCode: 'INVALID_API_KEY' } as const;
export const TOKEN_EXPIRED = { status: 401, code: 'unauthorized', errorCode: 'TOKEN_EXPIRED' } as const;
export const INVALID_CREDENTIALS = { status: 401, code: 'unauthorized', errorCode: 'INVALID_CREDENTIALS' } as const;
export const PAYMENT_REQUIRED = { status: 402, code: 'payment_required', errorCode: 'PAYMENT_REQUIRED' } as const;
export const INSUFFICIENT_PERMISSIONS = { status: 403, code: 'access_denied', errorCode: 'INSUFFICIENT_PERMISSIONS' } as const;
export const ACCESS_DENIED = { status: 403, code: 'access_denied', errorCode: 'ACCESS_DENIED' } as const;
export const EMAIL_NOT_VERIFIED = { status: 403, code: 'access_denied', errorCode: 'EMAIL_NOT_VERIFIED' } as const;
export const NAMESPACE_ACCESS_DENIED = { status: 403, code: 'access_denied', errorCode: 'NAMESPACE_ACCESS_DENIED' } as const;
export const ENTITLEMENT_DENIED = { status: 403, code: 'feature_limit_reached', errorCode: 'ENTITLEMENT_DENIED' } as const;
export const WORKSPACE_SUSPENDED = { status: 403, code: 'access_denied', errorCode: 'WORKSPACE_SUSPENDED' } as const;
export const RESOURCE_NOT_FOUND = { status: 404, code: 'not_found', errorCode: 'RESOURCE_NOT_FOUND' } as const;
export const ENDPOINT_NOT_FOUND = { status: 404, code: 'not_found', errorCode: 'ENDPOINT_NOT_FOUND' } as const;
export const METHOD_NOT_ALLOWED = { status: 405, code: 'method_not_allowed', errorCode: 'METHOD_NOT_ALLOWED' } as const;
export const DUPLICATE_RESOURCE = { status: 409, code: 'conflict', errorCode: 'DUPLICATE_RESOURCE' } as const;
export const STATE_CONFLICT = { status: 409, code: 'conflict', errorCode: 'STATE_CONFLICT' } as const;
export const RESOURCE_LOCKED = { status: 409, code: 'conflict', errorCode: 'RESOURCE_LOCKED' } as const;
export const PAYLOAD_TOO_LARGE = { status: 413, code: 'bad_request', errorCode: 'PAYLOAD_TOO_LARGE' } as const;
export const VALIDATION_FAILED = { status: 422, code: 'validation_failed', errorCode: 'VALIDATION_FAILED' } as const;
export const RATE_LIMIT_EXCEEDED = { status: 429, code: 'rate_limit_exceeded', errorCode: 'RATE_LIMIT_EXCEEDED' } as const;
export const QUOTA_EXCEEDED = { status: 429, code: 'quota_exceeded', errorCode: 'QUOTA_EXCEEDED' } as const;
export const CONCURRENT_LIMIT_EXCEEDED = { status: 429, code: 'rate_limit_exceeded', errorCode: 'CONCURRENT_LIMIT_EXCEEDED' } as const;
export const INTERNAL_ERROR = { status: 500, code: 'server_error', errorCode: 'INTERNAL_ERROR' } as const;
export const SERVICE_UNAVAILABLE = { status: 503, code: 'service_unavailable', errorCode: 'SERVICE_UNAVAILABLE' } as const;
export const MAINTENANCE_MODE = { status: 503, code: 'service_unavailable', errorCode: 'MAINTENANCE_MODE' } as const;
export const GATEWAY_TIMEOUT = { status: 504, code: 'server_error', errorCode: 'GATEWAY_TIMEOUT' } as const;
export const INVALID_REQUEST = { status: 400, code: 'invalid_request', errorCode: 'INVALID_REQUEST' } as const;
export const INVALID_CLIENT = { status: 400, code: 'invalid_client', errorCode: 'INVALID_CLIENT' } as const;
export const INVALID_GRANT = { status: 400, code: 'invalid_grant', errorCode: 'INVALID_GRANT' } as const;
export const INVALID_SCOPE = { status: 400, code: 'invalid_scope', errorCode: 'INVALID_SCOPE' } as const;
export const UNAUTHORIZED_CLIENT = { status: 400, code: 'unauthorized_client', errorCode: 'UNAUTHORIZED_CLIENT' } as const;
export const UNSUPPORTED_GRANT_TYPE = { status: 400, code: 'unsupported_grant_type', errorCode: 'UNSUPPORTED_GRANT_TYPE' } as const;
export const UNSUPPORTED_RESPONSE_TYPE = {
  status: 400,
  code: 'unsupported_response_type',
  errorCode: 'UNSUPPORTED_RESPONSE_TYPE',
} as const;
