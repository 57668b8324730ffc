import { hasExpired, isLive } from '#core/access/credential-lifecycle';
import type { Principal } from '#core/access/principal';
import { apiKeyRandomLength, keyDigest, parseApiKey } from '#core/api-keys/api-key-format';
import { BoundedCache } from '#core/platform/bounded-cache';
import { ConcurrencyLimit } from '#core/platform/concurrency-limit';
import { AccessDenied, InvalidApiKey, TokenExpired } from '#core/platform/errors';
import { tierAbove } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { ApiKeyItem } from '#core/store/items';
import type { CredentialRequest } from './credential-header.ts';
import { failedAuthenticationPolicy, guardedCompare } from './failed-authentications.ts';
import { ipAllowed } from './ip-match.ts';
import { recordUse } from './last-used.ts';
import { verifyCredential } from './verify-credential.ts';

interface KeyLocation {
  workspaceId: string;
  id: string;
  userId: number;
}

const verifiedKeys = new BoundedCache<KeyLocation>();

/** Secrets a bcrypt compare refused lately, by digest, until when (ms): refused again without a second compare. */
const refusedSecrets = new BoundedCache<number>();

/** bcrypt compares at a time in this process: a Lambda has one or two vCPUs. */
const bcryptSlots = new ConcurrencyLimit(2);

/**
 * Look-ups under way, by secret and address: racing first uses of one key share one compare,
 * so they take one attempt of the guard, not one each (25 at once would pass its 20).
 */
const lookingUp = new Map<string, Promise<KeyLocation | undefined>>();

function findOnce(deps: Deps, key: string, prefix: string, sourceIp: string): Promise<KeyLocation | undefined> {
  const at = `${keyDigest(key)}|${sourceIp}`;
  const running = lookingUp.get(at);
  if (running) return running;
  const found = findByPrefix(deps, key, prefix, sourceIp).finally(() => lookingUp.delete(at));
  lookingUp.set(at, found);
  return found;
}

/**
 * A key this process has not verified: found by its clear prefix, checked with bcrypt.
 * Keys that have ended (a rotated key past its grace period, a key past its TTL) are passed
 * over and an expired one answers TOKEN_EXPIRED, all without a compare: only a secret that
 * might be right costs one, under the guard of failed-authentications.ts.
 */
async function findByPrefix(deps: Deps, key: string, prefix: string, sourceIp: string): Promise<KeyLocation | undefined> {
  const now = deps.clock.now();
  const digest = keyDigest(key);
  if ((refusedSecrets.get(digest) ?? 0) > now.getTime()) return undefined;
  const { data: found } = await deps.db.entities.apiKey.query.byPrefix({ prefix }).go(hotPath);
  const live = found.filter((candidate) => isLive(candidate, now));
  const candidates = live.filter((candidate) => !hasExpired(candidate.expiresAt, now));
  const expired = live.find((candidate) => hasExpired(candidate.expiresAt, now));
  if (!candidates.length && expired) throw new TokenExpired(expired.expiresAt!);
  if (!candidates.length) return undefined;
  const match = await guardedCompare(deps, { sourceIp, prefix }, async () => {
    for (const candidate of candidates) {
      if (await bcryptSlots.run(() => deps.hasher.compare(key, candidate.keyHash))) {
        return { workspaceId: candidate.workspaceId, id: candidate.id, userId: candidate.userId };
      }
    }
    return undefined;
  });
  if (!match) refusedSecrets.set(digest, now.getTime() + failedAuthenticationPolicy.perPrefix.windowSeconds * 1000);
  return match;
}

export async function authenticateApiKey(
  deps: Deps,
  key: string,
  request: Pick<CredentialRequest, 'sourceIp' | 'workspaceId'>,
): Promise<Principal> {
  const parsed = parseApiKey(key);
  if (!parsed)
    throw new InvalidApiKey(`The API key is malformed: expected sk_live_ or sk_test_ and ${apiKeyRandomLength} letters or digits.`);
  return verifyCredential<KeyLocation, ApiKeyItem>(
    deps,
    {
      verified: verifiedKeys,
      refused: () => new InvalidApiKey(),
      locate: () => findOnce(deps, key, parsed.prefix, request.sourceIp),
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
    request.workspaceId,
  );
}
