import { isLive } from '#core/access/credential-lifecycle';
import type { Principal } from '#core/access/principal';
import { BoundedCache } from '#core/platform/bounded-cache';
import { InvalidToken } from '#core/platform/errors';
import { sameSecret, sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { UserTokenItem } from '#core/store/items';
import { recordUse } from './last-used.ts';
import { type Location, verifyCredential } from './verify-credential.ts';

const verifiedTokens = new BoundedCache<Location>();

/** A user token `<id>|<secret>`: its record by id, the secret's digest compared in constant time. */
export function authenticateUserToken(
  deps: Deps,
  credential: { id: number; secret: string; token: string },
  workspaceNamed?: string,
): Promise<Principal> {
  return verifyCredential<Location, UserTokenItem>(
    deps,
    {
      verified: verifiedTokens,
      refused: () => new InvalidToken('The token is invalid or has been revoked.'),
      locate: async () => {
        const { data } = await deps.db.entities.userToken.get({ id: credential.id }).go({ ...hotPath, consistent: true });
        if (!data || !sameSecret(sha256(credential.secret), data.secretDigest)) return undefined;
        return { workspaceId: data.workspaceId, userId: data.userId };
      },
      record: ({ userToken }) => userToken.get({ id: credential.id }).commit(),
      live: isLive,
      expiresAt: (token) => token.expiresAt,
      touch: (token, now) =>
        recordUse(
          (staleBefore) =>
            deps.db.entities.userToken
              .patch({ id: token.id })
              .set({ lastUsedAt: now.toISOString() })
              .where((attr, op) => `${op.notExists(attr.lastUsedAt)} OR ${op.lt(attr.lastUsedAt, staleBefore)}`)
              .go(hotPath),
          token.lastUsedAt,
          now,
        ),
      principal: (token, workspace) => ({
        environment: 'live',
        scopes: token.abilities,
        tier: workspace.tier,
        credential: { type: 'user_token', id: String(token.id) },
        limits: { expiresAt: token.expiresAt },
      }),
    },
    sha256(credential.token),
    workspaceNamed,
  );
}
