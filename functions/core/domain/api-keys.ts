import type { EntityItem } from 'electrodb';
import { generateApiKey, parseApiKey, type Environment } from '../auth/api-key-format.ts';
import { expiryWithin, type Actor, type Principal } from '../auth/principal.ts';
import { scopesBeyond } from '../auth/scopes.ts';
import type { Deps } from '../deps.ts';
import { AccessDenied, NotFound, StateConflict, ValidationFailed } from '../errors.ts';
import { keyIsLive } from '../auth/api-key-auth.ts';
import { idsCreatedWithin, newId } from '../ids.ts';
import type { ListSource } from '../lists/list-source.ts';
import { keyStatus } from './api-key-status.ts';
import { requireRole, roleIn } from './membership.ts';
import { commitOrThrow, goneAsNotFound, isConditionFailure } from '../store/conditions.ts';
import type { Database } from '../store/database.ts';
import { keyOrderReader } from '../store/key-order.ts';
import { collections, counted, countOneFewer, countOneMore } from '../store/list-counts.ts';
import { prunableFrom } from '../store/table.ts';
import { tierNames, type Tier } from '../tiers.ts';

type ApiKeyItem = EntityItem<Database['entities']['apiKey']>;

export const defaultKeyScopes = ['*:read', '*:write'];

/** How long an expired key is kept (answering TOKEN_EXPIRED) before DynamoDB's TTL may drop it. */
export const expiredKeyRetentionSeconds = 30 * 24 * 3600;

export function apiKeyView(item: ApiKeyItem, now: Date) {
  return {
    id: item.id,
    name: item.name,
    prefix: item.prefix,
    scopes: item.scopes,
    rate_limit_tier: item.rateLimitTier,
    environment: item.environment,
    workspace_id: item.workspaceId,
    allowed_ips: item.allowedIps ?? [],
    last_used_at: item.lastUsedAt ?? null,
    expires_at: item.expiresAt ?? null,
    status: keyStatus(item, now),
    grace_period_ends_at: item.graceEndsAt ?? null,
    created_at: item.createdAt,
  };
}

export interface NewApiKey {
  name: string;
  scopes?: string[];
  rateLimitTier?: Tier;
  environment?: Environment;
  expiresAt?: string | null;
  allowedIps?: string[];
  /** A full key to store instead of a generated one (bootstrap with BOOTSTRAP_API_KEY). */
  plaintext?: string;
}

/** Stores a new key for `userId` in `workspaceId` and returns its view with the key, once. */
export async function issueApiKey(deps: Deps, userId: number, workspaceId: string, input: NewApiKey) {
  const { item, key } = await newKeyItem(deps, userId, workspaceId, input);
  await commitOrThrow(() =>
    deps.db.transaction
      .write(({ apiKey, counter }) => [apiKey.create(item).commit(), countOneMore(counter, collections.apiKeysOfWorkspace(workspaceId))])
      .go(),
  );
  return { ...apiKeyView(item, deps.clock.now()), key };
}

/** A key's record and the key itself, not yet stored. */
async function newKeyItem(deps: Deps, userId: number, workspaceId: string, input: NewApiKey) {
  const now = deps.clock.now();
  if (input.expiresAt && Date.parse(input.expiresAt) <= now.getTime()) {
    throw new ValidationFailed({ expires_at: ['must be in the future'] });
  }
  const { data: workspace } = await deps.db.entities.workspace.get({ id: workspaceId }).go();
  if (!workspace) throw new NotFound('workspace', workspaceId);
  const rateLimitTier = input.rateLimitTier ?? workspace.tier;
  if (tierNames.indexOf(rateLimitTier) > tierNames.indexOf(workspace.tier)) {
    throw new ValidationFailed({ rate_limit_tier: [`must not be above the workspace's tier, ${workspace.tier}`] });
  }
  const key = input.plaintext ?? generateApiKey(input.environment ?? 'live');
  const parsed = parseApiKey(key);
  if (!parsed) throw new ValidationFailed({ key: ['must look like sk_live_ or sk_test_ and 32 letters or digits'] });
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined;
  const ttl = expiresAt ? Math.floor(Date.parse(expiresAt) / 1000) + expiredKeyRetentionSeconds : undefined;
  const item: ApiKeyItem = {
    id: newId('apiKey', now),
    workspaceId,
    userId,
    name: input.name,
    prefix: parsed.prefix,
    keyHash: await deps.hasher.hash(key),
    scopes: input.scopes ?? defaultKeyScopes,
    rateLimitTier,
    environment: parsed.environment,
    expiresAt,
    allowedIps: input.allowedIps?.length ? input.allowedIps : undefined,
    createdAt: now.toISOString(),
    ttl,
    prunableAt: ttl === undefined ? undefined : prunableFrom(ttl),
  };
  return { item, key };
}

function requireHeldScopes(principal: Principal, scopes: readonly string[], what: string) {
  const beyond = scopesBeyond(principal.scopes, scopes);
  if (beyond.length) throw new AccessDenied(`${what} scopes its creator does not hold: ${beyond.join(', ')}.`);
}

/**
 * Creates a key on behalf of a credential, which can never give it more than it has: no
 * scope it lacks, no tier above the workspace's, no later expiry, no wider IP list (its
 * own is inherited when none is given), and no live key from a test credential.
 */
export async function createApiKey(deps: Deps, principal: Principal, workspaceId: string, input: NewApiKey) {
  const scopes = input.scopes ?? defaultKeyScopes;
  requireHeldScopes(principal, scopes, 'A key cannot be given');
  const environment = input.environment ?? principal.environment;
  if (principal.environment === 'test' && environment === 'live') {
    throw new AccessDenied('A test credential cannot create live keys.');
  }
  return issueApiKey(deps, principal.userId, workspaceId, {
    ...input,
    scopes,
    environment,
    expiresAt: expiryWithin(principal, input.expiresAt),
    allowedIps: input.allowedIps ?? principal.limits?.allowedIps,
  });
}

/**
 * The workspace's keys that still exist, in creation order (an expired one included until
 * it is pruned). Keys that finished since the last pruning run (grace period over, TTL
 * passed) are filtered out by the Query itself: the FilterExpression form of keyIsLive.
 */
export function apiKeysOf(deps: Deps, workspaceId: string): ListSource<ApiKeyItem, ReturnType<typeof apiKeyView>> {
  const now = deps.clock.now();
  const { apiKey } = deps.db.entities;
  return {
    ...counted(deps.db, collections.apiKeysOfWorkspace(workspaceId)),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('apiKey', after, before),
    read: keyOrderReader(apiKey, 'byWorkspace', (range) => {
      const keys = apiKey.query.byWorkspace({ workspaceId });
      return (range ? keys.between({ id: range.from }, { id: range.to }) : keys).where(
        (attr, op) =>
          `(${op.notExists(attr.graceEndsAt)} OR ${op.gt(attr.graceEndsAt, now.toISOString())})` +
          ` AND (${op.notExists(attr.ttl)} OR ${op.gt(attr.ttl, now.getTime() / 1000)})`,
      );
    }),
    view: async (rows) => rows.map((row) => apiKeyView(row, now)),
  };
}

/** A key that still exists for its users (rotated and expired ones included); 404 otherwise. */
async function loadLiveKey(deps: Deps, workspaceId: string, id: string) {
  const { data } = await deps.db.entities.apiKey.get({ workspaceId, id }).go({ consistent: true });
  if (!data || !keyIsLive(data, deps.clock.now())) throw new NotFound('api_key', id);
  return data;
}

export async function getApiKey(deps: Deps, workspaceId: string, id: string) {
  return apiKeyView(await loadLiveKey(deps, workspaceId, id), deps.clock.now());
}

/**
 * Revoking deletes the key, with its count: its next use answers 401, and afterwards it
 * is 404 everywhere (get, rotate, revoke again), as a key that never existed.
 */
export async function revokeApiKey(deps: Deps, actor: Actor, workspaceId: string, id: string) {
  const key = await loadLiveKey(deps, workspaceId, id);
  if (key.userId !== actor.userId) {
    requireRole(await roleIn(deps, workspaceId, actor), ['owner', 'admin'], "revoke another member's key");
  }
  await goneAsNotFound('api_key', id, () =>
    commitOrThrow(() =>
      deps.db.transaction
        .write(({ apiKey, counter }) => [
          apiKey.delete({ workspaceId, id }).where((attr, op) => op.exists(attr.keyHash)).commit(),
          countOneFewer(counter, collections.apiKeysOfWorkspace(workspaceId)),
        ])
        .go(),
    ),
  );
}

/**
 * Issues a new key with the same name, scopes, tier, environment, IP list and expiry; the
 * old key keeps working until `grace_period_ends_at`, then is treated as gone (the pruning
 * job and TTL remove it). Only an active key can be rotated (a revoked or finished one is
 * 404, as on GET), and only by a credential holding every scope of the key.
 */
export async function rotateApiKey(deps: Deps, principal: Principal, workspaceId: string, id: string, gracePeriodHours: number) {
  const old = await loadLiveKey(deps, workspaceId, id);
  const now = deps.clock.now();
  const status = keyStatus(old, now);
  if (status === 'grace_period') {
    throw new StateConflict('The key was rotated already and works only until its grace period ends; rotate the key that replaced it.', status, 'rotate');
  }
  if (status === 'expired') throw new StateConflict('The key has expired and cannot be rotated; create a new key.', status, 'rotate');
  // The new key acts for the key's user and is shown to the caller: only that user may rotate.
  if (old.userId !== principal.userId) throw new AccessDenied('Only the user a key belongs to may rotate it; others may revoke it.');
  requireHeldScopes(principal, old.scopes, 'Rotating would issue a key with');
  const graceEndsAt = new Date(now.getTime() + gracePeriodHours * 3600 * 1000);
  const graceTtl = Math.floor(graceEndsAt.getTime() / 1000);
  const { item, key } = await newKeyItem(deps, old.userId, workspaceId, {
    name: old.name,
    scopes: old.scopes,
    rateLimitTier: old.rateLimitTier,
    expiresAt: old.expiresAt,
    allowedIps: old.allowedIps,
    plaintext: generateApiKey(old.environment),
  });
  try {
    await commitOrThrow(() =>
      deps.db.transaction
        .write(({ apiKey, counter }) => [
          apiKey.create(item).commit(),
          apiKey
            .patch({ workspaceId, id })
            .set({ graceEndsAt: graceEndsAt.toISOString(), rotatedToId: item.id, ttl: graceTtl, prunableAt: prunableFrom(graceTtl) })
            .where((attr, op) => op.notExists(attr.graceEndsAt))
            .commit(),
          // The old key stays counted until the pruning job deletes it after its grace period.
          countOneMore(counter, collections.apiKeysOfWorkspace(workspaceId)),
        ])
        .go(),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw new StateConflict('The key was rotated or revoked meanwhile.', 'grace_period', 'rotate');
  }
  return { ...apiKeyView(item, now), key, grace_period_ends_at: graceEndsAt.toISOString() };
}
