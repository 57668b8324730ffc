import type { Principal } from '#core/access/principal';
import { ApiError, reviveError, type SerializedError, serializeError, Unauthenticated } from '#core/platform/errors';

/**
 * The authorizer's verdict travels to the function in the authorizer context, whose values
 * API Gateway only carries as strings. A refused credential is passed on too, rather than
 * denied in the authorizer, because API Gateway can only answer a denial with one fixed
 * body; passing it on lets the function answer with the exact 401 of the spec
 * (`INVALID_API_KEY`, `TOKEN_EXPIRED` with `meta.expired_at`, ...).
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
