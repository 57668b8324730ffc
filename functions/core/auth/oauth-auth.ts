import type { Deps } from '../deps.ts';
import { readTogether } from '../store/conditions.ts';
import { InvalidToken } from '../errors.ts';
import { hotPath } from '../store/database.ts';
import { LocationCache } from './location-cache.ts';
import type { Principal } from './principal.ts';
import { sha256 } from './secrets.ts';
import { suspensionOf } from './workspace-context.ts';

interface TokenLocation {
  workspaceId: string;
  userId: number;
}

const knownTokens = new LocationCache<TokenLocation>();

const refused = () => new InvalidToken('The access token is invalid, expired or revoked.');

/**
 * An OAuth access token: its record by the token's digest, read strongly consistent with
 * its workspace and membership, so an expired token or a member removed fails at once.
 */
export async function authenticateOAuth(deps: Deps, token: string): Promise<Principal> {
  const digest = sha256(token);
  let location = knownTokens.get(digest);
  if (!location) {
    const { data } = await deps.db.entities.oauthToken.get({ digest }).go({ ...hotPath, consistent: true });
    if (!data) throw refused();
    location = { workspaceId: data.workspaceId, userId: data.userId };
  }
  const { workspaceId, userId } = location;
  const data = await readTogether(() =>
    deps.db.transaction
      .get(({ oauthToken, workspace, membership }) => [
        oauthToken.get({ digest }).commit(),
        workspace.get({ id: workspaceId }).commit(),
        membership.get({ workspaceId, userId }).commit(),
      ])
      .go(),
  );
  const [tokenRecord, workspaceRecord, membershipRecord] = data;
  const item = tokenRecord?.item;
  // DynamoDB's TTL removes an expired record some time later; until then it is absent to us.
  if (!item || item.ttl * 1000 <= deps.clock.now().getTime() || !workspaceRecord?.item || !membershipRecord?.item) {
    knownTokens.delete(digest);
    throw refused();
  }
  knownTokens.set(digest, location);
  return {
    userId,
    workspaceId,
    role: membershipRecord.item.role,
    environment: 'live',
    scopes: item.scopes,
    tier: workspaceRecord.item.tier,
    credential: { type: 'oauth', id: digest },
    suspension: suspensionOf(workspaceRecord.item),
    limits: { expiresAt: item.expiresAt },
  };
}
