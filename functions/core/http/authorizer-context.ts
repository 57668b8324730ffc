import type { Principal } from '#core/access/principal';
import { ApiError, Unauthenticated } from '#core/platform/errors';

/**
 * The authorizer's verdict travels to the function in the authorizer context, whose values
 * API Gateway only carries as strings. A refused credential is passed on too, rather than
 * denied in the authorizer, because API Gateway can only answer a denial with one fixed
 * body; passing it on lets the function answer with the exact 401 of the spec
 * (`INVALID_API_KEY`, `TOKEN_EXPIRED` with `meta.expired_at`, ...).
 */
export type AuthorizerContext = { principal: string } | { authError: string };

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

export function encodeVerdict(verdict: Principal | ApiError): AuthorizerContext {
  if (verdict instanceof ApiError) return { authError: JSON.stringify(serializeError(verdict)) };
  return { principal: JSON.stringify(verdict) };
}

type Context = Record<string, unknown> | null | undefined;

const decoded = new WeakMap<object, Principal>();

/** The principal of an accepted credential, or undefined; parsed once per request. */
export function acceptedPrincipal(context: Context): Principal | undefined {
  if (typeof context?.principal !== 'string') return undefined;
  let principal = decoded.get(context);
  if (!principal) decoded.set(context, (principal = JSON.parse(context.principal) as Principal));
  return principal;
}

/** The principal the authorizer established; throws the error it found instead. */
export function decodeVerdict(context: Context): Principal {
  const principal = acceptedPrincipal(context);
  if (principal) return principal;
  if (typeof context?.authError === 'string') throw reviveError(JSON.parse(context.authError) as SerializedError);
  throw new Unauthenticated();
}
