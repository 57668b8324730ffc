import type { Principal } from '#core/access/principal';
import { ApiError, reviveError, type SerializedError, serializeError, Unauthenticated } from '#core/platform/errors';

/**
 * The authorizer's verdict, as strings, the only values API Gateway's authorizer context
 * carries. A refused credential is passed on rather than denied, as API Gateway answers a
 * denial with one fixed body and the function must answer the spec's exact 401 (`TOKEN_EXPIRED`
 * with `meta.expired_at`, …).
 */
export type AuthorizerContext = { principal: string } | { authError: string };

export function encodeVerdict(verdict: Principal | ApiError): AuthorizerContext {
  if (verdict instanceof ApiError) return { authError: JSON.stringify(serializeError(verdict)) };
  return { principal: JSON.stringify(verdict) };
}

type Context = Record<string, unknown> | null | undefined;

/** The principal the authorizer admitted, if it admitted one. */
export const admittedPrincipal = (context: Context): Principal | undefined =>
  typeof context?.principal === 'string' ? (JSON.parse(context.principal) as Principal) : undefined;

/** The principal the authorizer established; throws the error it found instead. */
export function decodeVerdict(context: Context): Principal {
  const principal = admittedPrincipal(context);
  if (principal) return principal;
  if (typeof context?.authError === 'string') throw reviveError(JSON.parse(context.authError) as SerializedError);
  throw new Unauthenticated();
}
