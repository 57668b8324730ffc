import { grants, isKnownScope } from '../auth/scopes.ts';

/**
 * The scopes a token gets: those requested (the client's own when none are named) that the
 * client may hold and, for the code grant, that the approving user's credential holds.
 * Others are dropped rather than refused; the token response names what was granted
 * (RFC 6749 section 3.3).
 */
export function narrowScopes(requested: readonly string[] | undefined, clientScopes: readonly string[], userScopes?: readonly string[]): string[] {
  return [...new Set(requested ?? clientScopes)].filter(
    (scope) => isKnownScope(scope) && grants(clientScopes, scope) && (!userScopes || grants(userScopes, scope)),
  );
}
