import * as codes from './error-codes.ts';

export type ErrorExtras = Record<string, unknown>;

/** `code` is variant A's lowercase code, `errorCode` variant C's uppercase one. */
export interface ErrorIdentity {
  status: number;
  code: string;
  errorCode: string;
}

/** The errors the domain throws: errorAnswer (http/error-answer.ts) turns each into the envelope, so no handler builds an error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errorCode: string;

  constructor(
    identity: ErrorIdentity,
    message: string,
    readonly extras: ErrorExtras = {},
    readonly meta: ErrorExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    // The code, not the class name: bundles are minified, and logs should read INVALID_API_KEY.
    this.name = identity.errorCode;
    this.status = identity.status;
    this.code = identity.code;
    this.errorCode = identity.errorCode;
  }
}

export interface SerializedError {
  status: number;
  code: string;
  errorCode: string;
  message: string;
  extras: Record<string, unknown>;
  meta: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** An error as plain data, to carry it where only data goes (the authorizer context, a stored idempotent outcome). */
export function serializeError({ status, code, errorCode, message, extras, meta, headers }: ApiError): SerializedError {
  return { status, code, errorCode, message, extras, meta, headers };
}

/** The error again, from its data; `headers` added to its own. */
export const reviveError = (e: SerializedError, headers: Record<string, string> = {}) =>
  new ApiError(e, e.message, e.extras, e.meta, { ...e.headers, ...headers });

export type FieldErrors = Record<string, string[]>;

export class ValidationFailed extends ApiError {
  constructor(errors: FieldErrors, message = 'The given data was invalid.') {
    super(codes.VALIDATION_FAILED, message, { errors });
  }
}

export class InvalidFormat extends ApiError {
  /** `errors`, where the problem sits at a place in the request: the dotted field path (or parameter) to what is wrong there. */
  constructor(message: string, errors?: FieldErrors) {
    super(codes.INVALID_FORMAT, message, errors ? { errors } : {});
  }
}

/** A required query parameter that was not sent at all (one sent but invalid is a ValidationFailed). */
export class MissingParameter extends ApiError {
  constructor(names: readonly string[]) {
    const listed = names.map((name) => `"${name}"`).join(', ');
    super(
      codes.MISSING_PARAMETER,
      names.length === 1 ? `The query parameter ${listed} is required.` : `The query parameters ${listed} are required.`,
      { errors: Object.fromEntries(names.map((name) => [name, ['is required']])) },
    );
  }
}

/** A body that is JSON but not the kind of value the route takes: an array, a string, a number or null where an object belongs. */
export class InvalidType extends ApiError {
  constructor(field: string, expected: string, got: string) {
    super(codes.INVALID_TYPE, `The ${field} must be ${expected}, not ${got}.`, { errors: { [field]: [`must be ${expected}`] } });
  }
}

/** A route that needs a body, called with none at all: `errors` names each required field. */
export class MissingBody extends ApiError {
  constructor(errors: FieldErrors) {
    super(codes.MISSING_PARAMETER, 'A JSON body is required.', { errors });
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(limitBytes: number) {
    super(codes.PAYLOAD_TOO_LARGE, `The request body is larger than ${limitBytes} bytes.`, {
      limit: limitBytes,
    });
  }
}

/**
 * Every 401 of a credential names the scheme to use (RFC 7235 section 3.1; RFC 6750
 * section 3). The authorizer makes it `Bearer error="invalid_token"` for a refused Bearer
 * credential (credentials/authenticate.ts).
 */
const bearerChallenge = { 'WWW-Authenticate': 'Bearer' };

export class Unauthenticated extends ApiError {
  constructor(message = 'Authentication is required: send an API key as a Bearer token.') {
    super(codes.UNAUTHENTICATED, message, {}, {}, bearerChallenge);
  }
}

export class InvalidApiKey extends ApiError {
  constructor(message = 'The API key is invalid or has been revoked.') {
    super(codes.INVALID_API_KEY, message, {}, {}, bearerChallenge);
  }
}

export class TokenExpired extends ApiError {
  constructor(expiredAt: string) {
    super(codes.TOKEN_EXPIRED, 'The credential has expired.', {}, { expired_at: expiredAt }, bearerChallenge);
  }
}

export class InsufficientPermissions extends ApiError {
  /** `requiredScope`: one scope, or several space-separated (as OAuth's `scope` lists them) when the action needs more. */
  constructor(requiredScope: string, providedScopes: readonly string[], message = `This action requires the scope "${requiredScope}".`) {
    super(codes.INSUFFICIENT_PERMISSIONS, message, {
      required_scope: requiredScope,
      provided_scopes: [...providedScopes],
    });
  }
}

export class AccessDenied extends ApiError {
  constructor(message: string) {
    super(codes.ACCESS_DENIED, message);
  }
}

export class NotFound extends ApiError {
  constructor(resourceType: string, resourceId: string) {
    super(codes.RESOURCE_NOT_FOUND, `No ${resourceType} with id "${resourceId}" exists.`, {
      resource_type: resourceType,
      resource_id: resourceId,
    });
  }
}

export class EndpointNotFound extends ApiError {
  constructor(requestedPath: string) {
    super(codes.ENDPOINT_NOT_FOUND, `No endpoint answers ${requestedPath}.`, {
      requested_path: requestedPath,
    });
  }
}

export class MethodNotAllowed extends ApiError {
  constructor(method: string, path: string, allowed: readonly string[]) {
    super(
      codes.METHOD_NOT_ALLOWED,
      `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`,
      { allowed_methods: [...allowed] },
      {},
      { Allow: allowed.join(', ') },
    );
  }
}

export class DuplicateResource extends ApiError {
  constructor(
    resourceType: string,
    conflictingField: string,
    existingResourceId?: string,
    message = `A ${resourceType} with this ${conflictingField} already exists.`,
  ) {
    super(codes.DUPLICATE_RESOURCE, message, {
      conflicting_field: conflictingField,
      ...(existingResourceId ? { existing_resource_id: existingResourceId } : {}),
    });
  }
}

export class StateConflict extends ApiError {
  constructor(message: string, currentState: string, requestedAction: string) {
    super(codes.STATE_CONFLICT, message, {
      current_state: currentState,
      requested_action: requestedAction,
    });
  }
}

/** A manual retry of a webhook delivery the state table does not allow (succeeded, exhausted, or still being tried). */
export class CannotRetry extends ApiError {
  constructor(message: string, currentState: string, attempt: number) {
    super(codes.CANNOT_RETRY, message, { current_state: currentState, attempt });
  }
}

export class InternalError extends ApiError {
  constructor() {
    super(codes.INTERNAL_ERROR, 'Something went wrong on our side. Quote the request id when reporting it.');
  }
}

export class InvalidCredentials extends ApiError {
  constructor() {
    super(codes.INVALID_CREDENTIALS, 'The email or password is wrong.');
  }
}

export class InvalidToken extends ApiError {
  constructor(message = 'The token or session is invalid, revoked or ended.') {
    super(codes.UNAUTHENTICATED, message, {}, {}, bearerChallenge);
  }
}

/**
 * A refusal of the OAuth protocol (RFC 6749 sections 4.1.2.1 and 5.2). `error` carries the
 * RFC's code (`invalid_grant`, ...), which OAuth client libraries read, beside
 * `error_description`; the rest of the envelope stays as everywhere.
 */
export class OAuthRefusal extends ApiError {
  constructor(status: number, oauthError: string, description: string, headers: Record<string, string> = {}) {
    super({ status, code: oauthError, errorCode: oauthError.toUpperCase() }, description, { error_description: description }, {}, headers);
  }
}

/** A mailed link (email verification, email change) that is unknown, used, or past its 60 minutes. */
export class InvalidLink extends ApiError {
  constructor() {
    super(codes.ACCESS_DENIED, 'This link is invalid, used or expired: ask for a new one.');
  }
}

/** An account whose address is not confirmed yet may sign in, but not act on what was sent to that address. */
export class EmailNotVerified extends ApiError {
  constructor(action: string) {
    super(
      codes.EMAIL_NOT_VERIFIED,
      `Verify your email address before you ${action}: open the link we mailed you, or ask for a new one with POST /email/verification-notification.`,
    );
  }
}

export class WorkspaceSuspended extends ApiError {
  constructor(workspaceId: string, suspendedAt: string, reason: string) {
    super(
      codes.WORKSPACE_SUSPENDED,
      `Workspace ${workspaceId} is suspended.`,
      {},
      {
        suspended_at: suspendedAt,
        reason,
      },
    );
  }
}

/** A request acting in a workspace a platform admin marked unpaid. */
export class PaymentRequired extends ApiError {
  constructor(workspaceId: string, unpaidSince: string, upgradeUrl: string) {
    super(
      codes.PAYMENT_REQUIRED,
      `Workspace ${workspaceId} has an unpaid bill; settle it to use the workspace again.`,
      { upgrade_url: upgradeUrl },
      { unpaid_since: unpaidSince },
    );
  }
}

/** Both 503s say when to come back, in seconds. */
const retryIn = (seconds: number) => ({ extras: { retry_after: seconds }, headers: { 'Retry-After': String(seconds) } });

/** A dependency (the table) that keeps refusing after the SDK's own retries, or cannot be reached. */
export class ServiceUnavailable extends ApiError {
  constructor(retryAfterSeconds = 5) {
    const { extras, headers } = retryIn(retryAfterSeconds);
    super(codes.SERVICE_UNAVAILABLE, 'The service is briefly unavailable; retry after a moment.', extras, {}, headers);
  }
}

/** An operator took the service down for maintenance (admin CLI `maintenance on`, or MAINTENANCE_MODE=1). */
export class MaintenanceMode extends ApiError {
  constructor(retryAfterSeconds: number, message = 'The service is down for maintenance; retry later.') {
    const { extras, headers } = retryIn(retryAfterSeconds);
    super(codes.MAINTENANCE_MODE, message, extras, {}, headers);
  }
}

/** More calls of one credential running at once (batches, MCP tool calls) than its tier allows. */
export class ConcurrentLimitExceeded extends ApiError {
  constructor(limit: number, retryAfterSeconds = 1) {
    super(
      codes.CONCURRENT_LIMIT_EXCEEDED,
      `At most ${limit} batch or tool calls of one credential may run at once; retry when one has finished.`,
      { limit, retry_after: retryAfterSeconds },
      {},
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

export class RateLimited extends ApiError {
  /**
   * `headers`: the X-RateLimit-* of the request's allowance, where that is what refused it;
   * any other limit (test sends, failed authentications, logins) reports its own in them,
   * so that the headers never say there is room left while the answer is 429.
   */
  constructor(message: string, limit: number, resetAt: Date, now: Date, headers: Record<string, string> = {}) {
    const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
    const own = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(resetAt.getTime() / 1000)),
    };
    super(
      codes.RATE_LIMIT_EXCEEDED,
      message,
      { retry_after: retryAfter, limit, remaining: 0, reset_at: resetAt.toISOString() },
      {},
      { ...own, ...headers, 'Retry-After': String(retryAfter) },
    );
  }
}

/** A request while the spent monthly quota of a feature (api_calls) has not reset yet. */
export class QuotaExceeded extends ApiError {
  constructor(quotaType: string, limit: number, used: number, resetAt: Date, now: Date, headers: Record<string, string> = {}) {
    const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
    super(
      codes.QUOTA_EXCEEDED,
      `The monthly ${quotaType} quota of ${limit} is used up; it resets at ${resetAt.toISOString()}.`,
      { quota_type: quotaType, limit, used, reset_at: resetAt.toISOString(), retry_after: retryAfter },
      {},
      { ...headers, 'Retry-After': String(retryAfter) },
    );
  }
}

/** Creating one more of a limited thing (API keys, webhooks, members, posts) at its limit. */
export class FeatureLimitReached extends ApiError {
  constructor(feature: string, limit: number, used: number, upgradeUrl: string) {
    super(codes.ENTITLEMENT_DENIED, `The ${feature} limit of ${limit} is reached; upgrade for more.`, {
      feature,
      limit,
      current_usage: used,
      upgrade_url: upgradeUrl,
    });
  }
}

/** A namespace the credential may not act in, named by X-Namespace-ID or namespace_id. */
export class NamespaceAccessDenied extends ApiError {
  constructor(namespaceId: string, message = `You may not use namespace "${namespaceId.slice(0, 64)}".`) {
    super(codes.NAMESPACE_ACCESS_DENIED, message);
  }
}

/** The same Idempotency-Key while its first request is still running. */
export class ResourceLocked extends ApiError {
  constructor(message: string) {
    super(codes.RESOURCE_LOCKED, message, {}, {}, { 'Retry-After': '1' });
  }
}
