import { ValidationFailed } from '#core/platform/errors';

/** The methods whose repeats an Idempotency-Key makes safe (the spec's POST, PUT, PATCH and DELETE). */
const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a route takes an Idempotency-Key: one that changes something, for a credential.
 * Public routes have no owner to key the request by, and ignore the header.
 */
export const takesIdempotencyKey = (route: { auth: string; method: string; idempotencyKey?: false }): boolean =>
  route.auth === 'credential' && unsafeMethods.has(route.method) && route.idempotencyKey !== false;

/** What a request is known by: whose, which key, and what it asked (method, path, query, body). */
export interface IdempotentRequest {
  owner: string;
  key: string;
  fingerprint: {
    method: string;
    path: string;
    query: Record<string, string | undefined>;
    /** The workspace acted in and the namespace named: the same call elsewhere is another request. */
    context: { workspaceId: string | null; namespace: string | null };
    body: unknown;
  };
}

/**
 * Fields no repeat is told apart by: a password typed to confirm a change. Were they part of
 * the fingerprint, a repeat with another one would answer "a different request", which
 * tells whether a guess is the password the first request held, past the throttle that
 * guards it; left out, a repeat with any password replays the first answer.
 */
const passwordFields = new Set(['current_password', 'password', 'password_confirmation']);

const withoutPasswords = (body: unknown): unknown =>
  body && typeof body === 'object' && !Array.isArray(body)
    ? Object.fromEntries(Object.entries(body).filter(([name]) => !passwordFields.has(name)))
    : body;

const maxKeyLength = 255;

/** A UUID, or any key a client makes: printable ASCII without spaces, as Stripe takes. */
export const idempotencyKeyPattern = new RegExp(`^[\\x21-\\x7E]{1,${maxKeyLength}}$`);

/**
 * The idempotent request a call makes, if it sends an Idempotency-Key to a route that
 * takes one (above); undefined otherwise. Owned by the credential that sent it: a replay
 * answers only the credential whose checks (scopes, IP list, tier) the first request passed,
 * so a narrower credential of the same user cannot replay what it could not have asked.
 */
export function idempotentRequestOf(call: {
  route: { auth: string; method: string; idempotencyKey?: false };
  path: string;
  headers: Record<string, string>;
  query: Record<string, string | undefined>;
  workspaceId: string | undefined;
  body: unknown;
  owner: { credential: { type: string; id: string } } | undefined;
}): IdempotentRequest | undefined {
  if (!takesIdempotencyKey(call.route) || !call.owner || !('idempotency-key' in call.headers)) return undefined;
  const key = call.headers['idempotency-key']!;
  if (!idempotencyKeyPattern.test(key)) {
    throw new ValidationFailed({
      'Idempotency-Key': [`must be 1 to ${maxKeyLength} printable ASCII characters without spaces, such as a UUID`],
    });
  }
  return {
    owner: `${call.owner.credential.type}:${call.owner.credential.id}`,
    key,
    fingerprint: {
      method: call.route.method,
      path: call.path,
      query: call.query,
      context: { workspaceId: call.workspaceId ?? null, namespace: call.headers['x-namespace-id'] || null },
      body: withoutPasswords(call.body ?? null),
    },
  };
}
