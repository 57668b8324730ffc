import type { Deps } from '../deps.ts';
import { readTogether } from '../store/conditions.ts';
import { InvalidToken, TokenExpired } from '../errors.ts';
import { hotPath } from '../store/database.ts';
import { recordUse } from './last-used.ts';
import { LocationCache } from './location-cache.ts';
import type { Principal } from './principal.ts';
import { sameSecret, sha256 } from './secrets.ts';
import { suspensionOf } from './workspace-context.ts';

interface TokenLocation {
  workspaceId: string;
  userId: number;
}

const verifiedTokens = new LocationCache<TokenLocation>();

/** A user token `<id>|<secret>`: its record by id, the secret's digest compared in constant time. */
export async function authenticateUserToken(deps: Deps, credential: { id: number; secret: string; token: string }): Promise<Principal> {
  const digest = sha256(credential.token);
  let location = verifiedTokens.get(digest);
  if (!location) {
    const { data } = await deps.db.entities.userToken.get({ id: credential.id }).go({ ...hotPath, consistent: true });
    if (!data || !sameSecret(sha256(credential.secret), data.secretDigest)) throw new InvalidToken('The token is invalid or has been revoked.');
    location = { workspaceId: data.workspaceId, userId: data.userId };
  }
  const { workspaceId, userId } = location;
  const data = await readTogether(() =>
    deps.db.transaction
      .get(({ userToken, workspace, membership }) => [
        userToken.get({ id: credential.id }).commit(),
        workspace.get({ id: workspaceId }).commit(),
        membership.get({ workspaceId, userId }).commit(),
      ])
      .go(),
  );
  const [tokenRecord, workspaceRecord, membershipRecord] = data;
  const token = tokenRecord?.item;
  const now = deps.clock.now();
  if (!token || (token.ttl !== undefined && token.ttl * 1000 <= now.getTime()) || !workspaceRecord?.item || !membershipRecord?.item) {
    verifiedTokens.delete(digest);
    throw new InvalidToken('The token is invalid or has been revoked.');
  }
  verifiedTokens.set(digest, location);
  if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime()) throw new TokenExpired(token.expiresAt);
  await recordUse(
    (staleBefore) =>
      deps.db.entities.userToken
        .patch({ id: token.id })
        .set({ lastUsedAt: now.toISOString() })
        .where((attr, op) => `${op.notExists(attr.lastUsedAt)} OR ${op.lt(attr.lastUsedAt, staleBefore)}`)
        .go(hotPath),
    token.lastUsedAt,
    now,
  );
  return {
    userId,
    workspaceId,
    role: membershipRecord.item.role,
    environment: 'live',
    scopes: token.abilities,
    tier: workspaceRecord.item.tier,
    credential: { type: 'user_token', id: String(token.id) },
    suspension: suspensionOf(workspaceRecord.item),
    limits: { expiresAt: token.expiresAt },
  };
}
