/**
 * Every error the service or API Gateway answers with, by variant C's uppercase code: its
 * status, variant A's lowercase code, what it means and what it carries. The error classes
 * (errors.ts), API Gateway's own answers (gateway-responses.ts) and the error responses of
 * openapi.yaml all read it from here, so the three cannot disagree.
 *
 * Plain JSON Schema rather than zod: this module is in every bundle, the authorizer's too,
 * and builds nothing at start-up.
 */
export type JsonSchema = Record<string, unknown>;

export interface ErrorEntry {
  status: number;
  /** Statuses API Gateway may give it besides `status` (its catch-all responses keep theirs). */
  alsoAt?: readonly number[];
  /** Variant A's lowercase code. */
  code: string;
  /** When it is answered, for a reader of openapi.yaml. */
  description: string;
  /** Top-level fields every answer with this code carries. */
  carries?: Record<string, JsonSchema>;
  /** Top-level fields some answers with this code carry (see the description). */
  mayCarry?: Record<string, JsonSchema>;
  /** `meta` fields beside request_id and timestamp. */
  meta?: Record<string, JsonSchema>;
  /** Response headers every answer with this code carries. */
  headers?: readonly ('Allow' | 'Retry-After')[];
  /**
   * On a credential route, whether it carries the X-RateLimit-* headers (rate-limit.ts):
   * `always` where it is only answered once the credential was accepted, `when accepted`
   * where it may also come before (the body-size check, API Gateway's own answers).
   * Absent: never (the credential refused, the fallback, API Gateway's timeout).
   */
  rateLimitHeaders?: 'always' | 'when accepted';
  /** A refusal of RFC 6749's protocol, which only the OAuth endpoints answer. */
  oauth?: true;
}

const text = (description: string): JsonSchema => ({ type: 'string', description });
const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const instant = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const texts = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

/** RFC 6749's refusals carry the RFC's own code in `error`, which OAuth client libraries read. */
const oauthRefusal = (code: string, description: string, alsoAt?: readonly number[]): ErrorEntry => ({
  status: 400,
  ...(alsoAt ? { alsoAt } : {}),
  code,
  description: `OAuth (RFC 6749 section 5.2): ${description}`,
  carries: { error_description: text('The refusal in words, as RFC 6749 names it.') },
  oauth: true,
  rateLimitHeaders: 'always', // the authorization endpoint checks its parameters once the session is accepted
});

export const errorCatalogue = {
  INVALID_FORMAT: {
    status: 400,
    code: 'bad_request',
    description: 'The body is not valid JSON, or not the form a form endpoint takes.',
    rateLimitHeaders: 'always',
  },
  BAD_REQUEST: {
    status: 400,
    code: 'bad_request',
    description: "API Gateway's answer to a request it refuses for a reason no other code names; it keeps its own 4xx status.",
  },
  UNAUTHENTICATED: {
    status: 401,
    code: 'unauthorized',
    description: 'No credential was sent, or a token or session that is invalid, revoked or ended.',
  },
  INVALID_API_KEY: { status: 401, code: 'unauthorized', description: 'The API key is malformed, unknown or revoked.' },
  TOKEN_EXPIRED: {
    status: 401,
    code: 'unauthorized',
    description: 'The API key or user token has expired.',
    meta: { expired_at: instant('When it expired.') },
  },
  INVALID_CREDENTIALS: { status: 401, code: 'unauthorized', description: 'The email or password is wrong.' },
  INSUFFICIENT_PERMISSIONS: {
    status: 403,
    code: 'access_denied',
    description: "The credential lacks the route's scope.",
    carries: { required_scope: text('The scope the route requires.'), provided_scopes: texts('The scopes the credential holds.') },
    rateLimitHeaders: 'always',
  },
  ACCESS_DENIED: {
    status: 403,
    code: 'access_denied',
    description:
      'Refused: a role too low, a workspace you are not a member of, scopes beyond your own, a credential type the route does ' +
      'not take, a source address outside the key’s allowlist, a missing X-XSRF-TOKEN, or registration closed.',
    rateLimitHeaders: 'when accepted',
  },
  WORKSPACE_SUSPENDED: {
    status: 403,
    code: 'access_denied',
    description: 'The acting workspace is suspended; only routes that allow it (who am I, invitations, logout) still answer.',
    meta: { suspended_at: instant('When it was suspended.'), reason: text('Why, as the platform admin wrote it.') },
    rateLimitHeaders: 'always',
  },
  RESOURCE_NOT_FOUND: {
    status: 404,
    code: 'not_found',
    description: "No such resource, or it belongs to another tenant (a foreign id answers as if it did not exist).",
    carries: { resource_type: text('e.g. workspace, api_key.'), resource_id: text('The id asked for.') },
    rateLimitHeaders: 'always',
  },
  ENDPOINT_NOT_FOUND: {
    status: 404,
    code: 'not_found',
    description: 'No endpoint answers this path (or its feature is switched off).',
    carries: { requested_path: text('The path as requested.') },
    rateLimitHeaders: 'when accepted',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    code: 'method_not_allowed',
    description: 'The path exists, but not with this method; the Allow header lists the methods it takes.',
    carries: { allowed_methods: texts('The methods the path takes.') },
    headers: ['Allow'],
  },
  DUPLICATE_RESOURCE: {
    status: 409,
    code: 'conflict',
    description: 'A resource with this unique value (slug, email) already exists.',
    carries: { conflicting_field: text('The field whose value is taken.') },
    mayCarry: { existing_resource_id: text('The id holding the value, where you may know it.') },
    rateLimitHeaders: 'always',
  },
  STATE_CONFLICT: {
    status: 409,
    code: 'conflict',
    description: 'The resource is not in a state that allows this (a key already rotated, your own home workspace).',
    carries: { current_state: text('The state it is in.'), requested_action: text('What was asked.') },
    rateLimitHeaders: 'always',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    code: 'bad_request',
    description: 'The body is larger than the limit: 256 KiB for a function, 10 MiB for API Gateway.',
    carries: { limit: count('The largest body accepted, in bytes.') },
    rateLimitHeaders: 'when accepted',
  },
  VALIDATION_FAILED: {
    status: 422,
    code: 'validation_failed',
    description: 'A field, path or query parameter is invalid or unknown; `errors` names every one.',
    carries: {
      errors: {
        type: 'object',
        additionalProperties: texts('The problems of this field.'),
        description: 'Dotted field path (or parameter name) to its problems.',
      },
    },
    rateLimitHeaders: 'always',
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    code: 'rate_limit_exceeded',
    description:
      "Over the credential's allowance, too many failed logins, or API Gateway's own throttling " +
      '(which cannot know limit, remaining and reset_at, nor report X-RateLimit-*).',
    carries: { retry_after: count('Seconds until a retry may succeed; also the Retry-After header.') },
    mayCarry: {
      limit: count('The allowance of the window.'),
      remaining: count('What is left of it: 0.'),
      reset_at: instant('When the window ends.'),
    },
    headers: ['Retry-After'],
    rateLimitHeaders: 'when accepted',
  },
  QUOTA_EXCEEDED: {
    status: 429,
    code: 'quota_exceeded',
    description: "An API Gateway usage plan's quota is used up (no API key is attached to a plan yet).",
  },
  INTERNAL_ERROR: {
    status: 500,
    alsoAt: [502],
    code: 'server_error',
    description: 'Our fault; the message never carries internals. 502 when the function failed outright and API Gateway answered.',
    rateLimitHeaders: 'when accepted',
  },
  GATEWAY_TIMEOUT: {
    status: 504,
    code: 'server_error',
    description: 'The function took longer than API Gateway waits (29 s); the request may still complete.',
  },
  INVALID_REQUEST: oauthRefusal('invalid_request', 'a parameter is missing, repeated or malformed (PKCE with S256 is required).'),
  INVALID_CLIENT: oauthRefusal('invalid_client', 'the client is unknown or its authentication failed (401 when it was sent as HTTP Basic).', [401]),
  INVALID_GRANT: oauthRefusal('invalid_grant', 'the code, verifier or redirect_uri does not match, or the code was used or has expired.'),
  INVALID_SCOPE: oauthRefusal('invalid_scope', 'a scope beyond what the client may ask for.'),
  UNAUTHORIZED_CLIENT: oauthRefusal('unauthorized_client', 'the client may not use this grant type.'),
  UNSUPPORTED_GRANT_TYPE: oauthRefusal('unsupported_grant_type', 'a grant type other than authorization_code and client_credentials.'),
  UNSUPPORTED_RESPONSE_TYPE: oauthRefusal('unsupported_response_type', 'a response_type other than code.'),
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Every status an entry can be answered at. */
export const statusesOf = (entry: ErrorEntry): number[] => [entry.status, ...(entry.alsoAt ?? [])];
