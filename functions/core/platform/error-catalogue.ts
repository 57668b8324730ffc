import * as errorCodes from './error-codes.ts';

/**
 * The error catalogue: every code the service or API Gateway answers with, what it means and
 * what it carries, which API Gateway's own answers and openapi.yaml's error responses read so
 * that they cannot disagree. Apart from error-codes.ts, which every function bundles, as only
 * openapi.yaml and the tests need the prose.
 */
export type ErrorCode = keyof typeof errorCodes;

export type JsonSchema = Record<string, unknown>;

/**
 * Limits that descriptions name but layers above the platform set, which this file may not
 * import: lib/openapi hands them in (error-responses.ts), so the text follows them.
 */
export interface DocumentedLimits {
  /** The webhook retry ladder's length (webhooks/ladder.ts). */
  deliveryAttempts: number;
  /** Test sends a minute to one webhook endpoint (webhooks/test-send.ts). */
  testSendsPerMinute: number;
  /** How deep a JSON body may nest (http/strict-json.ts). */
  jsonDepth: number;
  /** The largest body a function takes (http/http-answer.ts), and API Gateway (http/gateway-responses.ts). */
  functionBodyBytes: number;
  gatewayBodyBytes: number;
}

interface ErrorDocs {
  /** Statuses API Gateway may give it besides its own (its catch-all responses keep theirs). */
  alsoAt?: readonly number[];
  /** When it is answered, for a reader of openapi.yaml. */
  description: string | ((limits: DocumentedLimits) => string);
  /** Top-level fields every answer with this code carries. */
  carries?: Record<string, JsonSchema>;
  /** Top-level fields some answers with this code carry (see the description). */
  mayCarry?: Record<string, JsonSchema>;
  /** `meta` fields beside request_id and timestamp. */
  meta?: Record<string, JsonSchema>;
  /** Response headers every answer with this code carries. */
  headers?: readonly ('Allow' | 'Retry-After' | 'WWW-Authenticate')[];
  /**
   * Whether it carries the X-RateLimit-* headers (rate-limits.ts): `when accepted` where it may
   * also come before the credential is (the body-size check, API Gateway's own answers); absent, never.
   */
  rateLimitHeaders?: 'always' | 'when accepted';
  /** A refusal of RFC 6749's protocol, which only the OAuth endpoints answer. */
  oauth?: true;
}

const text = (description: string): JsonSchema => ({ type: 'string', description });
const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const instant = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const texts = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });
/** `errors` of the codes that name fields or parameters. */
const fieldProblems: JsonSchema = {
  type: 'object',
  additionalProperties: texts('The problems of this field.'),
  description: 'Dotted field path (or parameter name) to its problems.',
};

/** RFC 6749's refusals carry the RFC's own code in `error`, which OAuth client libraries read. */
const oauthRefusal = (description: string, alsoAt?: readonly number[]): ErrorDocs => ({
  ...(alsoAt ? { alsoAt } : {}),
  description: `OAuth (RFC 6749 section 5.2): ${description}`,
  carries: { error_description: text('The refusal in words, as RFC 6749 names it.') },
  oauth: true,
  rateLimitHeaders: 'always', // the authorization endpoint checks its parameters once the session is accepted
});

const documentation = {
  INVALID_FORMAT: {
    description: ({ jsonDepth }) =>
      'Not well-formed: a body that is not JSON (or not the form a form endpoint takes), not UTF-8, has a key twice in one object, ' +
      `or nests objects and arrays deeper than ${jsonDepth} levels; ` +
      'or a lone UTF-16 surrogate anywhere. `errors` names the field or parameter, where there is one.',
    mayCarry: { errors: fieldProblems },
    rateLimitHeaders: 'always',
  },
  MISSING_PARAMETER: {
    description:
      'A required query parameter was not sent, or a route that needs a JSON body got none at all; `errors` names each missing parameter or field ("is required").',
    carries: { errors: fieldProblems },
    rateLimitHeaders: 'always',
  },
  INVALID_TYPE: {
    description:
      'The body is JSON, but not the kind of value the route takes: an array, a string, a number or null where an object belongs. `errors` names `body`.',
    carries: { errors: fieldProblems },
    rateLimitHeaders: 'always',
  },
  BAD_REQUEST: {
    description: "API Gateway's answer to a request it refuses for a reason no other code names; it keeps its own 4xx status.",
  },
  UNAUTHENTICATED: {
    description: 'No credential was sent, or a token or session that is invalid, revoked or ended.',
    headers: ['WWW-Authenticate'],
  },
  INVALID_API_KEY: { description: 'The API key is malformed, unknown or revoked.', headers: ['WWW-Authenticate'] },
  TOKEN_EXPIRED: {
    description: 'The API key or user token has expired.',
    meta: { expired_at: instant('When it expired.') },
    headers: ['WWW-Authenticate'],
  },
  INVALID_CREDENTIALS: { description: 'The email or password is wrong.' },
  PAYMENT_REQUIRED: {
    description:
      'The acting workspace has an unpaid bill (a platform admin marked it unpaid); reading, listing and deleting workspaces and your own account still answer, so a tenant can settle or leave.',
    carries: { upgrade_url: text('Where to settle the bill.') },
    meta: { unpaid_since: instant('When the workspace was marked unpaid.') },
    rateLimitHeaders: 'always',
  },
  INSUFFICIENT_PERMISSIONS: {
    description:
      "The credential lacks the route's scope, or (a webhook endpoint's `events`, or rotating its secret) the read scope of a resource whose events it would receive.",
    carries: {
      required_scope: text(
        'The scope the route requires; for webhook subscriptions, each read scope the credential lacks, space-separated.',
      ),
      provided_scopes: texts('The scopes the credential holds.'),
    },
    rateLimitHeaders: 'always',
  },
  ACCESS_DENIED: {
    description:
      'Refused: a role too low, a workspace you are not a member of, scopes beyond your own, a credential type the route does ' +
      'not take, a source address outside the key’s allowlist, a missing X-XSRF-TOKEN, registration closed, or a mailed link that is invalid, used or expired.',
    rateLimitHeaders: 'when accepted',
  },
  EMAIL_NOT_VERIFIED: {
    description: 'The account’s email address is not verified yet, and the action (accepting an invitation) needs it.',
    rateLimitHeaders: 'always',
  },
  NAMESPACE_ACCESS_DENIED: {
    description: 'X-Namespace-ID or namespace_id names a namespace the credential may not use (existing or not).',
    rateLimitHeaders: 'always',
  },
  ENTITLEMENT_DENIED: {
    description: 'Creating one more of a limited thing (API keys, webhooks, members, posts) at the limit of the plan and its packages.',
    carries: {
      feature: text('The feature whose limit is reached.'),
      limit: count('The limit.'),
      current_usage: count('What is used now.'),
      upgrade_url: text('Where to buy more.'),
    },
    rateLimitHeaders: 'always',
  },
  WORKSPACE_SUSPENDED: {
    description: 'The acting workspace is suspended; only routes that allow it (who am I, invitations, logout) still answer.',
    meta: { suspended_at: instant('When it was suspended.'), reason: text('Why, as the platform admin wrote it.') },
    rateLimitHeaders: 'always',
  },
  RESOURCE_NOT_FOUND: {
    description: 'No such resource, or it belongs to another tenant (a foreign id answers as if it did not exist).',
    carries: { resource_type: text('e.g. workspace, api_key.'), resource_id: text('The id asked for.') },
    rateLimitHeaders: 'always',
  },
  ENDPOINT_NOT_FOUND: {
    description: 'No endpoint answers this path (or its feature is switched off).',
    carries: { requested_path: text('The path as requested.') },
    rateLimitHeaders: 'when accepted',
  },
  METHOD_NOT_ALLOWED: {
    description: 'The path exists, but not with this method; the Allow header lists the methods it takes.',
    carries: { allowed_methods: texts('The methods the path takes.') },
    headers: ['Allow'],
  },
  DUPLICATE_RESOURCE: {
    description: 'A resource with this unique value (slug, email) already exists.',
    carries: { conflicting_field: text('The field whose value is taken.') },
    mayCarry: { existing_resource_id: text('The id holding the value, where you may know it.') },
    rateLimitHeaders: 'always',
  },
  CANNOT_RETRY: {
    description: ({ deliveryAttempts }) =>
      `A webhook delivery that cannot be retried by hand: it succeeded, used all ${deliveryAttempts} attempts, or is still being attempted (pending or retrying).`,
    carries: { current_state: text("The delivery's status."), attempt: count('The number of its last attempt.') },
    rateLimitHeaders: 'always',
  },
  STATE_CONFLICT: {
    description: 'The resource is not in a state that allows this (a key already rotated, your own home workspace).',
    carries: { current_state: text('The state it is in.'), requested_action: text('What was asked.') },
    rateLimitHeaders: 'always',
  },
  RESOURCE_LOCKED: {
    description: 'A request with this Idempotency-Key is still running; retry once it has completed.',
    headers: ['Retry-After'],
    rateLimitHeaders: 'always',
  },
  PAYLOAD_TOO_LARGE: {
    description: ({ functionBodyBytes, gatewayBodyBytes }) =>
      `The body is larger than the limit: ${functionBodyBytes / 1024} KiB for a function, ${gatewayBodyBytes / 1024 / 1024} MiB for API Gateway.`,
    carries: { limit: count('The largest body accepted, in bytes.') },
    rateLimitHeaders: 'when accepted',
  },
  VALIDATION_FAILED: {
    description: 'A field, path or query parameter is invalid or unknown; `errors` names every one.',
    carries: { errors: fieldProblems },
    rateLimitHeaders: 'always',
  },
  RATE_LIMIT_EXCEEDED: {
    description: ({ testSendsPerMinute }) =>
      `Over the credential's allowance, too many failed logins, more than ${testSendsPerMinute} test sends a minute to one webhook endpoint, or API Gateway's own throttling ` +
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
    description:
      "The workspace's monthly api_calls quota is used up (tier plus packages), or API Gateway's usage-plan quota is " +
      '(which cannot know quota_type, limit, used and reset_at).',
    mayCarry: {
      retry_after: count('Seconds until the quota resets; also the Retry-After header.'),
      quota_type: text('The feature whose quota is spent: api_calls.'),
      limit: count('The monthly quota.'),
      used: count('What was used this month.'),
      reset_at: instant('When the quota resets: the start of next month, UTC.'),
    },
    rateLimitHeaders: 'when accepted',
  },
  CONCURRENT_LIMIT_EXCEEDED: {
    description: 'More batch or MCP tool calls of one credential running at once than its tier allows; retry when one has finished.',
    carries: {
      limit: count('The calls one credential of this tier may run at once.'),
      retry_after: count('Seconds until a retry may succeed; also the Retry-After header.'),
    },
    headers: ['Retry-After'],
    rateLimitHeaders: 'always',
  },
  INTERNAL_ERROR: {
    alsoAt: [502],
    description: 'Our fault; the message never carries internals. 502 when the function failed outright and API Gateway answered.',
    rateLimitHeaders: 'when accepted',
  },
  SERVICE_UNAVAILABLE: {
    description:
      'A dependency (the database) kept refusing after retries (throttling) or could not be reached; nothing was changed, retry later.',
    carries: { retry_after: count('Seconds until a retry may succeed; also the Retry-After header.') },
    headers: ['Retry-After'],
    rateLimitHeaders: 'when accepted',
  },
  MAINTENANCE_MODE: {
    description: 'The service is down for maintenance (an operator switch); `/health` and the platform admin routes still answer.',
    carries: { retry_after: count('Seconds until the operator expects it back; also the Retry-After header.') },
    headers: ['Retry-After'],
    rateLimitHeaders: 'when accepted',
  },
  GATEWAY_TIMEOUT: {
    description: 'The function took longer than API Gateway waits (29 s); the request may still complete.',
  },
  INVALID_REQUEST: oauthRefusal('a parameter is missing, repeated or malformed (PKCE with S256 is required).'),
  INVALID_CLIENT: oauthRefusal('the client is unknown or its authentication failed (401 when it was sent as HTTP Basic).', [401]),
  INVALID_GRANT: oauthRefusal('the code, verifier or redirect_uri does not match, or the code was used or has expired.'),
  INVALID_SCOPE: oauthRefusal('a scope beyond what the client may ask for.'),
  UNAUTHORIZED_CLIENT: oauthRefusal('the client may not use this grant type.'),
  UNSUPPORTED_GRANT_TYPE: oauthRefusal('a grant type other than authorization_code and client_credentials.'),
  UNSUPPORTED_RESPONSE_TYPE: oauthRefusal('a response_type other than code.'),
} satisfies Record<ErrorCode, ErrorDocs>;

export interface ErrorEntry extends ErrorDocs {
  status: number;
  /** Variant A's lowercase code. */
  code: string;
}

export const errorCatalogue = Object.fromEntries(
  (Object.keys(documentation) as ErrorCode[]).map((name) => {
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the catalogue reads every code, and no function bundles it
    const { status, code } = errorCodes[name];
    return [name, { status, code, ...documentation[name] }];
  }),
) as Record<ErrorCode, ErrorEntry>;

/** Every status an entry can be answered at. */
export const statusesOf = (entry: ErrorEntry): number[] => [entry.status, ...(entry.alsoAt ?? [])];
