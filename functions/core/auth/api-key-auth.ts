import type { EntityItem } from 'electrodb';
import type { Deps } from '../deps.ts';
import { readTogether } from '../store/conditions.ts';
import { AccessDenied, InvalidApiKey, TokenExpired } from '../errors.ts';
import { hotPath, type Database } from '../store/database.ts';
import { keyDigest, parseApiKey } from './api-key-format.ts';
import type { CredentialRequest } from './credentials.ts';
import { ipAllowed } from './ip-allowlist.ts';
import { recordUse } from './last-used.ts';
import { LocationCache } from './location-cache.ts';
import type { Principal } from './principal.ts';
import { suspensionOf } from './workspace-context.ts';

type ApiKeyItem = EntityItem<Database['entities']['apiKey']>;
interface KeyLocation {
  workspaceId: string;
  id: string;
  userId: number;
}

const verifiedKeys = new LocationCache<KeyLocation>();

/**
 * A key that still exists for the authorizer: not past its grace period or TTL (a revoked
 * key is deleted). domain/api-keys.ts `apiKeysOf` filters lists by the same rule.
 */
export function keyIsLive(item: ApiKeyItem, now: Date): boolean {
  if (item.graceEndsAt && Date.parse(item.graceEndsAt) <= now.getTime()) return false;
  return item.ttl === undefined || item.ttl * 1000 > now.getTime();
}

/** A key this process has not verified: found by its clear prefix, checked with bcrypt. */
async function findByPrefix(deps: Deps, key: string, prefix: string): Promise<KeyLocation | undefined> {
  const { data: candidates } = await deps.db.entities.apiKey.query.byPrefix({ prefix }).go();
  for (const candidate of candidates) {
    if (await deps.hasher.compare(key, candidate.keyHash)) {
      return { workspaceId: candidate.workspaceId, id: candidate.id, userId: candidate.userId };
    }
  }
  return undefined;
}

export async function authenticateApiKey(deps: Deps, key: string, request: Pick<CredentialRequest, 'sourceIp'>): Promise<Principal> {
  const parsed = parseApiKey(key);
  if (!parsed) throw new InvalidApiKey('The API key is malformed: expected sk_live_ or sk_test_ and 32 letters or digits.');
  const digest = keyDigest(key);
  const location = verifiedKeys.get(digest) ?? (await findByPrefix(deps, key, parsed.prefix));
  if (!location) throw new InvalidApiKey();
  // The index read above may trail a revocation; this strongly consistent read does not.
  const data = await readTogether(() =>
    deps.db.transaction
      .get(({ apiKey, workspace, membership }) => [
        apiKey.get({ workspaceId: location.workspaceId, id: location.id }).commit(),
        workspace.get({ id: location.workspaceId }).commit(),
        membership.get({ workspaceId: location.workspaceId, userId: location.userId }).commit(),
      ])
      .go(),
  );
  const [keyRecord, workspaceRecord, membershipRecord] = data;
  const item = keyRecord?.item;
  const now = deps.clock.now();
  if (!item || !keyIsLive(item, now) || !workspaceRecord?.item || !membershipRecord?.item) {
    verifiedKeys.delete(digest);
    throw new InvalidApiKey();
  }
  verifiedKeys.set(digest, location);
  if (item.expiresAt && Date.parse(item.expiresAt) <= now.getTime()) throw new TokenExpired(item.expiresAt);
  if (item.allowedIps?.length && !ipAllowed(request.sourceIp, item.allowedIps)) {
    throw new AccessDenied(`This API key may not be used from ${request.sourceIp}.`);
  }
  await recordUse(
    (staleBefore) =>
      deps.db.entities.apiKey
        .patch({ workspaceId: item.workspaceId, id: item.id })
        .set({ lastUsedAt: now.toISOString() })
        .where((attr, op) => `${op.notExists(attr.lastUsedAt)} OR ${op.lt(attr.lastUsedAt, staleBefore)}`)
        .go(hotPath),
    item.lastUsedAt,
    now,
  );
  return {
    userId: item.userId,
    workspaceId: item.workspaceId,
    role: membershipRecord.item.role,
    environment: item.environment,
    scopes: item.scopes,
    tier: item.rateLimitTier,
    credential: { type: 'api_key', id: item.id },
    suspension: suspensionOf(workspaceRecord.item),
    limits: { expiresAt: item.expiresAt, allowedIps: item.allowedIps },
  };
}
