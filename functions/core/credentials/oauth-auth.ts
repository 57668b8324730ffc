import { isLive } from '#core/access/credential-lifecycle';
import type { Principal } from '#core/access/principal';
import { BoundedCache } from '#core/platform/bounded-cache';
import { InvalidToken } from '#core/platform/errors';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { OAuthTokenItem } from '#core/store/items';
import { type Location, verifyCredential } from './verify-credential.ts';

const knownTokens = new BoundedCache<Location>();

/**
 * An OAuth access token: its record by the token's digest, read strongly consistent with
 * its workspace and membership, so an expired token or a member removed fails at once.
 */
export function authenticateOAuth(deps: Deps, token: string): Promise<Principal> {
  const digest = sha256(token);
  return verifyCredential<Location, OAuthTokenItem>(
    deps,
    {
      verified: knownTokens,
      refused: () => new InvalidToken('The access token is invalid, expired or revoked.'),
      locate: async () => {
        const { data } = await deps.db.entities.oauthToken.get({ digest }).go({ ...hotPath, consistent: true });
        return data ? { workspaceId: data.workspaceId, userId: data.userId } : undefined;
      },
      record: ({ oauthToken }) => oauthToken.get({ digest }).commit(),
      // The client's workspace, and no other: the grant covers that workspace only.
      boundTo: (location) => location.workspaceId,
      // An access token's TTL is its expiry: past it, the token is refused like a revoked one.
      live: isLive,
      principal: (item, workspace) => ({
        environment: 'live',
        scopes: item.scopes,
        tier: workspace.tier,
        credential: { type: 'oauth', id: digest },
        // The client's workspace, and no other: the grant covers that workspace only.
        limits: { expiresAt: item.expiresAt, workspaceId: item.workspaceId },
      }),
    },
    digest,
  );
}
