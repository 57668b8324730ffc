import { config } from '../config.ts';
import type { Deps } from '../deps.ts';
import { InvalidToken } from '../errors.ts';
import { authenticateApiKey } from './api-key-auth.ts';
import { credentialOf, type CredentialRequest } from './credentials.ts';
import { authenticateOAuth } from './oauth-auth.ts';
import type { Principal } from './principal.ts';
import { authenticateSession } from './session-auth.ts';
import { authenticateUserToken } from './user-token-auth.ts';

/** Finds and checks whatever credential the request carries; throws the 401/403 it earns. */
export async function authenticate(deps: Deps, request: CredentialRequest): Promise<Principal> {
  const credential = credentialOf(request);
  switch (credential.type) {
    case 'api_key':
      return authenticateApiKey(deps, credential.key, request);
    case 'user_token':
      return authenticateUserToken(deps, credential);
    case 'session':
      return authenticateSession(deps, credential.sessionId, request);
    case 'oauth':
      if (config().OAUTH_ENABLED) return authenticateOAuth(deps, credential.token);
      throw new InvalidToken('The bearer credential is not an API key, a user token or a known access token.');
  }
}
