import type { EntityItem } from 'electrodb';
import type { Deps } from '../deps.ts';
import { AccessDenied, InvalidApiKey } from '../errors.ts';
import { hotPath, type Database } from '../store/database.ts';
import { tierAbove } from '../tiers.ts';
import { keyDigest, parseApiKey } from './api-key-format.ts';
import { BoundedCache } from './bounded-cache.ts';
import { ConcurrencyLimit } from './concurrency-limit.ts';
import { isLive } from './credential-lifecycle.ts';
import type { CredentialRequest } from './credentials.ts';
import { ipAllowed } from './ip-match.ts';
import { recordUse } from './last-used.ts';
import type { Principal } from './principal.ts';
import { verifyCredential } from './verify-credential.ts';

type ApiKeyItem = EntityItem<Database['entities']['apiKey']>;
interface KeyLocation {
  workspaceId: string;
  id: string;
  userId: number;
}

const verifiedKeys = new BoundedCache<KeyLocation>();

/** bcrypt compares at a time in this process: a Lambda has one or two vCPUs. */
const bcryptSlots = new ConcurrencyLimit(2);

/** A key this process has not verified: found by its clear prefix, checked with bcrypt. */
async function findByPrefix(deps: Deps, key: string, prefix: string): Promise<KeyLocation | undefined> {
  const { data: candidates } = await deps.db.entities.apiKey.query.byPrefix({ prefix }).go(hotPath);
  for (const candidate of candidates) {
    if (await bcryptSlots.run(() => deps.hasher.compare(key, candidate.keyHash))) {
      return { workspaceId: candidate.workspaceId, id: candidate.id, userId: candidate.userId };
    }
  }
  return undefined;
}

export async function authenticateApiKey(deps: Deps, key: string, request: Pick<CredentialRequest, 'sourceIp'>): Promise<Principal> {
  const parsed = parseApiKey(key);
  if (!parsed) throw new InvalidApiKey('The API key is malformed: expected sk_live_ or sk_test_ and 32 letters or digits.');
  return verifyCredential<KeyLocation, ApiKeyItem>(
    deps,
    {
      verified: verifiedKeys,
      refused: () => new InvalidApiKey(),
      costly: true,
      locate: () => findByPrefix(deps, key, parsed.prefix),
      record: ({ apiKey }, { workspaceId, id }) => apiKey.get({ workspaceId, id }).commit(),
      live: isLive,
      expiresAt: (item) => item.expiresAt,
      check: (item) => {
        if (item.allowedIps?.length && !ipAllowed(request.sourceIp, item.allowedIps)) {
          throw new AccessDenied(`This API key may not be used from ${request.sourceIp}.`);
        }
      },
      touch: (item, now) =>
        recordUse(
          (staleBefore) =>
            deps.db.entities.apiKey
              .patch({ workspaceId: item.workspaceId, id: item.id })
              .set({ lastUsedAt: now.toISOString() })
              .where((attr, op) => `${op.notExists(attr.lastUsedAt)} OR ${op.lt(attr.lastUsedAt, staleBefore)}`)
              .go(hotPath),
          item.lastUsedAt,
          now,
        ),
      principal: (item, workspace) => {
        // A key never counts above its workspace's tier, should a platform admin lower it.
        const tier = tierAbove(item.rateLimitTier, workspace.tier) ? workspace.tier : item.rateLimitTier;
        return {
          environment: item.environment,
          scopes: item.scopes,
          tier,
          credential: { type: 'api_key', id: item.id },
          limits: { expiresAt: item.expiresAt, allowedIps: item.allowedIps, tier },
        };
      },
    },
    keyDigest(key),
    request.sourceIp,
  );
}
