import type { Principal } from '#core/access/principal';
import { config } from '#core/platform/config';
import { ApiError, InvalidToken } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { authenticateApiKey } from './api-key-auth.ts';
import { type Credential, type CredentialRequest, credentialOf } from './credential-header.ts';
import { authenticateOAuth } from './oauth-auth.ts';
import { authenticateSession } from './session-auth.ts';
import { authenticateUserToken } from './user-token-auth.ts';

function verify(deps: Deps, credential: Credential, request: CredentialRequest): Promise<Principal> {
  switch (credential.type) {
    case 'api_key':
      return authenticateApiKey(deps, credential.key, request);
    case 'user_token':
      return authenticateUserToken(deps, credential, request.workspaceId);
    case 'session':
      return authenticateSession(deps, credential.sessionId, request);
    case 'oauth':
      if (config().OAUTH_ENABLED) return authenticateOAuth(deps, credential.token);
      throw new InvalidToken('The bearer credential is not an API key, a user token or a known access token.');
  }
}

/** An RFC 6750 quoted string may not hold `"` or `\`, nor anything outside printable ASCII. */
const quotable = (text: string) => text.replace(/"/g, "'").replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '');

/**
 * A refused Bearer credential is an `invalid_token` (RFC 6750 section 3); other 401s keep
 * the plain `Bearer` challenge their error carries (errors.ts).
 */
function challenged(error: unknown, request: CredentialRequest): unknown {
  if (!(error instanceof ApiError) || error.status !== 401 || !/^\s*bearer\s+\S/i.test(request.authorization ?? '')) return error;
  const challenge = `Bearer error="invalid_token", error_description="${quotable(error.message)}"`;
  return new ApiError(error, error.message, error.extras, error.meta, { ...error.headers, 'WWW-Authenticate': challenge });
}

/** Finds and checks whatever credential the request carries; throws the 401/403/429 it earns. */
export async function authenticate(deps: Deps, request: CredentialRequest): Promise<Principal> {
  try {
    return await verify(deps, credentialOf(request), request);
  } catch (error) {
    throw challenged(error, request);
  }
}
