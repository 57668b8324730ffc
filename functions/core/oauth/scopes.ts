import { isKnownScope, scopesBeyond } from '#core/access/scopes';

/**
 * True when `scope` is one the service knows and `held` covers, read by the scope grammar
 * (wildcards and aliases on either side), not by spelling: a `*` grant covers
 * `workspaces:read`, and `keys:manage` covers `api-keys:read` and itself.
 */
export const withinScopes = (held: readonly string[], scope: string): boolean =>
  isKnownScope(scope) && scopesBeyond(held, [scope]).length === 0;

/**
 * The scopes a token gets: those requested (the client's own when none are named) that the
 * client may hold and, for the code grant, that the approving user's credential holds.
 * Others are dropped rather than refused; the token response names what was granted
 * (RFC 6749 section 3.3).
 */
export function narrowScopes(
  requested: readonly string[] | undefined,
  clientScopes: readonly string[],
  userScopes?: readonly string[],
): string[] {
  return [...new Set(requested ?? clientScopes)].filter(
    (scope) => withinScopes(clientScopes, scope) && (!userScopes || withinScopes(userScopes, scope)),
  );
}
