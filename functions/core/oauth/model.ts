import OAuth2Server from '@node-oauth/oauth2-server';
import { sameSecret, sha256 } from '../auth/secrets.ts';
import type { Deps } from '../deps.ts';
import { isConditionFailure } from '../store/conditions.ts';
import { findOAuthClient, type OAuthClientItem } from './clients.ts';
import { narrowScopes } from './scopes.ts';

/**
 * Whom a code or token acts for. `scopes` is what the approving user's credential holds;
 * a client credentials token has no user credential, only its client's registration.
 */
export interface OAuthUser {
  userId: number;
  workspaceId: string;
  scopes?: readonly string[];
}

type Client = OAuth2Server.Client & OAuthClientItem;

export const accessTokenLifetimeSeconds = 3600;
/** Short, as RFC 6749 section 4.1.2 asks: a code only bridges one redirect. */
export const authorizationCodeLifetimeSeconds = 120;

/** A base64url SHA-256 challenge: 43 characters (RFC 7636 section 4.2). */
const s256Challenge = /^[A-Za-z0-9_-]{43}$/;

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The authorization endpoint only identifies the client by its id (RFC 6749 section 3.1).
 * The token endpoint authenticates it: a confidential client with its secret, while a
 * public one has no secret to send and proves itself with the PKCE verifier instead.
 */
async function clientFor(deps: Deps, endpoint: 'authorize' | 'token', id: string, secret?: string | null): Promise<Client | undefined> {
  const client = await findOAuthClient(deps, id);
  if (!client || endpoint === 'authorize') return client;
  const authentic = client.secretDigest ? !!secret && sameSecret(sha256(secret), client.secretDigest) : !secret;
  return authentic ? client : undefined;
}

/**
 * What @node-oauth/oauth2-server needs from storage, over our table: clients, codes and
 * tokens by the SHA-256 digest of their secret, records past their `ttl` treated as absent.
 * The library runs the protocol (parameters, grant rules, PKCE verification, responses).
 * Expiries are stamped from deps.clock, not the library's own `new Date()`, so that what is
 * stored and what is checked read the same clock.
 */
export function oauthModel(deps: Deps, endpoint: 'authorize' | 'token') {
  const now = () => deps.clock.now();
  const after = (seconds: number) => new Date(now().getTime() + seconds * 1000);
  const expired = (ttl: number) => ttl * 1000 <= now().getTime();

  return {
    getClient: (id: string, secret?: string | null) => clientFor(deps, endpoint, id, secret),

    async validateScope(user: OAuthUser, client: Client, requested?: string[]) {
      const scopes = narrowScopes(requested, client.scopes, user.scopes);
      return scopes.length ? scopes : false;
    },

    async saveAuthorizationCode(code: Omit<OAuth2Server.AuthorizationCode, 'client' | 'user'>, client: Client, user: OAuthUser) {
      // PKCE of every client, confidential ones too (RFC 9700 section 2.1.1).
      if (!code.codeChallenge || !s256Challenge.test(code.codeChallenge)) {
        throw new OAuth2Server.InvalidRequestError('Missing or invalid parameter: `code_challenge` (PKCE with S256 is required)');
      }
      // There is no consent screen, so only members of the client's own workspace are signed
      // in to it silently; anyone else would hand a third party their account unasked.
      const { data: member } = await deps.db.entities.membership.get({ workspaceId: client.workspaceId, userId: user.userId }).go();
      if (!member) throw new OAuth2Server.AccessDeniedError('Only members of the client\'s workspace may authorize it.');
      const expiresAt = after(authorizationCodeLifetimeSeconds);
      await deps.db.entities.oauthCode
        .create({
          digest: sha256(code.authorizationCode),
          clientId: client.id,
          userId: user.userId,
          workspaceId: user.workspaceId,
          redirectUri: code.redirectUri,
          scopes: code.scope ?? [],
          codeChallenge: code.codeChallenge,
          expiresAt: expiresAt.toISOString(),
          createdAt: now().toISOString(),
          ttl: epochSeconds(expiresAt),
        })
        .go();
      return { ...code, expiresAt, client, user };
    },

    async getAuthorizationCode(authorizationCode: string) {
      const { data } = await deps.db.entities.oauthCode.get({ digest: sha256(authorizationCode) }).go({ consistent: true });
      if (!data || expired(data.ttl)) return false;
      return {
        authorizationCode,
        expiresAt: new Date(data.expiresAt),
        redirectUri: data.redirectUri,
        scope: data.scopes,
        codeChallenge: data.codeChallenge,
        codeChallengeMethod: 'S256',
        // The library only compares this id with the client that authenticated.
        client: { id: data.clientId, grants: ['authorization_code'] },
        user: { userId: data.userId, workspaceId: data.workspaceId } satisfies OAuthUser,
      };
    },

    /** Deleting on the condition that the code exists makes it single-use, even under a race. */
    async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode) {
      try {
        await deps.db.entities.oauthCode.remove({ digest: sha256(code.authorizationCode) }).go();
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    /** Client credentials act for the client's owner; one who has left the workspace gets none. */
    async getUserFromClient(client: Client) {
      const { data } = await deps.db.entities.membership
        .get({ workspaceId: client.workspaceId, userId: client.ownerUserId })
        .go({ consistent: true });
      return data ? ({ userId: client.ownerUserId, workspaceId: client.workspaceId } satisfies OAuthUser) : false;
    },

    async saveToken(token: OAuth2Server.Token, client: Client, user: OAuthUser) {
      const expiresAt = after(accessTokenLifetimeSeconds);
      await deps.db.entities.oauthToken
        .create({
          digest: sha256(token.accessToken),
          clientId: client.id,
          userId: user.userId,
          workspaceId: user.workspaceId,
          scopes: token.scope ?? [],
          expiresAt: expiresAt.toISOString(),
          createdAt: now().toISOString(),
          ttl: epochSeconds(expiresAt),
        })
        .go();
      // The library also makes a refresh token for the code grant; no refresh grant is
      // served, so it is neither stored nor sent.
      return { accessToken: token.accessToken, accessTokenExpiresAt: expiresAt, scope: token.scope, client, user };
    },
  };
}
