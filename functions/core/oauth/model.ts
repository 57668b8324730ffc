import { randomBytes } from 'node:crypto';
import OAuth2Server from '@node-oauth/oauth2-server';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { commitOrThrow, isConditionFailure } from '#core/store/conditions';
import type { OAuthClientItem } from '#core/store/items';
import { clientRefusal } from './client-authentication.ts';
import { findOAuthClient } from './clients.ts';
import { revokeFamily } from './families.ts';
import { narrowScopes } from './scopes.ts';
import { accessTokenLifetimeSeconds, authorizationCodeLifetimeSeconds, refreshTokenLifetimeSeconds } from './token-lifetimes.ts';

/**
 * Whom a code or token acts for. `scopes` is what the approving user's credential holds;
 * a client credentials token has no user credential, only its client's registration.
 * `refreshed` is set when a refresh token is exchanged: the new pair joins its family, and
 * the token (by its digest) is spent in the same write.
 */
export interface OAuthUser {
  userId: number;
  workspaceId: string;
  scopes?: readonly string[];
  refreshed?: { familyId: string; digest: string };
}

/** The signed-in user approving a code: the code itself acts in the client's workspace. */
export type Approver = Pick<OAuthUser, 'userId' | 'scopes'>;

export type Client = OAuth2Server.Client & OAuthClientItem;

/** A base64url SHA-256 challenge: 43 characters (RFC 7636 section 4.2). */
const s256Challenge = /^[A-Za-z0-9_-]{43}$/;

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The authorization endpoint only identifies the client by its id (RFC 6749 section 3.1).
 * The token endpoint authenticates it (clientRefusal): refused, the library answers
 * `invalid_client` with the reason as its description.
 */
async function clientFor(deps: Deps, endpoint: 'authorize' | 'token', id: string, secret?: string | null): Promise<Client | undefined> {
  const found = await findOAuthClient(deps, id);
  // A refresh token belongs to the code grant: a client of that grant may use it.
  const client = found && {
    ...found,
    grants: found.grants.includes('authorization_code') ? [...found.grants, 'refresh_token'] : found.grants,
  };
  if (endpoint === 'authorize') return client;
  const refusal = clientRefusal(found, secret);
  if (refusal) throw new OAuth2Server.InvalidClientError(refusal);
  return client;
}

/** Where a validated authorization code goes: stored (approval), or only looked at (the consent page). */
export type CodeSink = (code: { scopes: string[]; redirectUri: string }, client: Client) => Promise<void>;

/**
 * What @node-oauth/oauth2-server needs from storage: clients, codes and tokens by the digest of
 * their secret, absent past their `ttl`. Expiries are stamped from deps.clock rather than the
 * library's `new Date()`, so that what is stored and what is checked read the same clock.
 */
export function oauthModel(deps: Deps, endpoint: 'authorize' | 'token', sink?: CodeSink) {
  const now = () => deps.clock.now();
  const after = (seconds: number) => new Date(now().getTime() + seconds * 1000);
  const expired = (ttl: number) => ttl * 1000 <= now().getTime();

  return {
    getClient: (id: string, secret?: string | null) => clientFor(deps, endpoint, id, secret),

    async validateScope(user: Approver, client: Client, requested?: string[]) {
      const scopes = narrowScopes(requested, client.scopes, user.scopes);
      return scopes.length ? scopes : false;
    },

    async saveAuthorizationCode(code: Omit<OAuth2Server.AuthorizationCode, 'client' | 'user'>, client: Client, user: Approver) {
      // PKCE of every client, confidential ones too (RFC 9700 section 2.1.1).
      if (!code.codeChallenge || !s256Challenge.test(code.codeChallenge)) {
        throw new OAuth2Server.InvalidRequestError('Missing or invalid parameter: `code_challenge` (PKCE with S256 is required)');
      }
      // The token acts in the client's workspace only: its members alone may authorize it.
      const { data: member } = await deps.db.entities.membership.get({ workspaceId: client.workspaceId, userId: user.userId }).go();
      if (!member) throw new OAuth2Server.AccessDeniedError("Only members of the client's workspace may authorize it.");
      const expiresAt = after(authorizationCodeLifetimeSeconds);
      if (sink) {
        await sink({ scopes: code.scope ?? [], redirectUri: code.redirectUri }, client);
        return { ...code, expiresAt, client, user };
      }
      await deps.db.entities.oauthCode
        .create({
          digest: sha256(code.authorizationCode),
          clientId: client.id,
          userId: user.userId,
          workspaceId: client.workspaceId,
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

    /**
     * Stores the access token and, for the code and refresh grants, the refresh token, in the
     * family of their authorization. A refresh spends its token in the same transaction, on
     * condition that it is unused and its family not revoked, so that of two simultaneous uses
     * one wins and any failure leaves the token as it was.
     */
    async saveToken(token: Pick<OAuth2Server.Token, 'accessToken' | 'refreshToken' | 'scope'>, client: Client, user: OAuthUser) {
      const { refreshed } = user;
      const owner = {
        clientId: client.id,
        familyId: refreshed?.familyId ?? randomBytes(16).toString('hex'),
        userId: user.userId,
        workspaceId: user.workspaceId,
        scopes: token.scope ?? [],
        createdAt: now().toISOString(),
      };
      const expiresAt = after(accessTokenLifetimeSeconds);
      const access = { digest: sha256(token.accessToken), ...owner, expiresAt: expiresAt.toISOString(), ttl: epochSeconds(expiresAt) };
      const refreshExpiresAt = after(refreshTokenLifetimeSeconds);
      const refresh = token.refreshToken && {
        digest: sha256(token.refreshToken),
        ...owner,
        expiresAt: refreshExpiresAt.toISOString(),
        ttl: epochSeconds(refreshExpiresAt),
      };
      try {
        await commitOrThrow(() =>
          deps.db.transaction
            .write(({ oauthToken, oauthRefreshToken, oauthFamily }) => [
              oauthToken.create(access).commit(),
              ...(refresh ? [oauthRefreshToken.create(refresh).commit()] : []),
              ...(refreshed
                ? [
                    oauthRefreshToken
                      .patch({ digest: refreshed.digest })
                      .set({ usedAt: now().toISOString() })
                      .where((attr, op) => op.notExists(attr.usedAt))
                      .commit(),
                    oauthFamily
                      .check({ familyId: refreshed.familyId })
                      .where((attr, op) => op.notExists(attr.revokedAt))
                      .commit(),
                  ]
                : []),
            ])
            .go(),
        );
      } catch (error) {
        if (isConditionFailure(error))
          throw new OAuth2Server.InvalidGrantError('Invalid grant: refresh token was used or revoked meanwhile');
        throw error;
      }
      if (!refresh) return { accessToken: token.accessToken, accessTokenExpiresAt: expiresAt, scope: token.scope, client, user };
      return { ...token, accessTokenExpiresAt: expiresAt, refreshTokenExpiresAt: refreshExpiresAt, client, user };
    },

    /**
     * For the refresh grant (refresh-grant.ts). A used refresh token presented again has
     * leaked: its family is revoked, and the grant refused.
     */
    async getRefreshToken(refreshToken: string) {
      const digest = sha256(refreshToken);
      const { data } = await deps.db.entities.oauthRefreshToken.get({ digest }).go({ consistent: true });
      if (!data || expired(data.ttl)) return false;
      if (data.usedAt) {
        await revokeFamily(deps, data.familyId);
        return false;
      }
      return {
        clientId: data.clientId,
        scopes: data.scopes,
        user: { userId: data.userId, workspaceId: data.workspaceId, refreshed: { familyId: data.familyId, digest } } satisfies OAuthUser,
      };
    },
  };
}
