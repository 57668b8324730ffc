import type * as z from 'zod/mini';
import { isLive, retentionOf } from '#core/access/credential-lifecycle';
import { commonIpRanges } from '#core/access/ip-allowlist';
import {
  earlierExpiry,
  expiryWithin,
  ipListWithin,
  requireEnvironment,
  requireHeldScopes,
  requireScope,
  requireUnboundCredential,
} from '#core/access/issuance-limits';
import type { Actor, Principal } from '#core/access/principal';
import { countOneFewerOf, countOneMoreWithin, limitNow, requireBelow, usedOf, withinLimit } from '#core/entitlements/limited-counts';
import { forgetUsage } from '#core/entitlements/usage';
import { type Acting, eventIn } from '#core/events/origins';
import { commitWithEvents } from '#core/events/outbox';
import type { ListSource } from '#core/lists/list-source';
import { workspaceScope } from '#core/namespaces/workspace-scope';
import type { Environment } from '#core/platform/environments';
import { AccessDenied, NotFound, StateConflict, ValidationFailed } from '#core/platform/errors';
import { idsCreatedWithin, newId } from '#core/platform/ids';
import { type Tier, tierAbove } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { goneAsNotFound, isConditionFailure } from '#core/store/conditions';
import type { ApiKeyItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { collections, counted, countOneFewer, countOneMore, forgetCount } from '#core/store/list-counts';
import { prunableFrom } from '#core/store/table';
import { requireRole, roleIn } from '#core/tenancy/membership';
import { madeInOpenWorkspace, openWorkspace } from '#core/tenancy/workspace-open';
import { apiKeyRandomLength, generateApiKey, parseApiKey } from './api-key-format.ts';
import type { apiKey, createdApiKey, revokedApiKey, rotatedApiKey } from './api-key-schemas.ts';
import { keyStatus } from './api-key-status.ts';

/** Whose api_keys count a key is in: its workspace's, in its environment. */
export const keyOwner = (key: Pick<ApiKeyItem, 'workspaceId' | 'environment'>) =>
  ({ ownerType: 'Workspace', ownerId: key.workspaceId, environment: key.environment }) as const;

const defaultKeyScopes = ['*:read', '*:write'];

export function apiKeyView(item: ApiKeyItem, now: Date): z.output<typeof apiKey> {
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
  /** The creating credential's own tier, if it has one: the key's may not be above it. */
  tierCeiling?: Tier;
  /** A full key to store instead of a generated one (bootstrap with BOOTSTRAP_API_KEY). */
  plaintext?: string;
}

/**
 * Stores a new key for `userId` in `workspaceId`, with `api_key.created` in the environment
 * of the credential `acting` (none: bootstrap, `live`), and returns its view with the key, once.
 */
export async function issueApiKey(
  deps: Deps,
  userId: number,
  workspaceId: string,
  input: NewApiKey,
  acting?: Acting,
): Promise<z.output<typeof createdApiKey>> {
  const { item, key, workspace } = await newKeyItem(deps, userId, workspaceId, input);
  const scope = await workspaceScope(deps, workspace, item.environment);
  const view = apiKeyView(item, deps.clock.now());
  // Each environment's keys are counted against the limit apart: test keys never use up live ones.
  await madeInOpenWorkspace(
    deps,
    workspaceId,
    () =>
      withinLimit(deps, scope, 'api_keys', (limit) =>
        commitWithEvents(deps, [eventIn(workspaceId, acting, 'api_key.created', view)], ({ apiKey, counter, usageCounter }) => [
          apiKey.create(item).commit(),
          countOneMore(counter, collections.apiKeysOfWorkspace(workspaceId)),
          countOneMoreWithin(usageCounter, scope, 'api_keys', limit, deps.clock.now()),
        ]),
      ),
    () => undoKey(deps, workspaceId, item.id),
  );
  return { ...view, key };
}

/** Undoes a key made in a workspace being deleted (workspace-open.ts): the key, and the counts its create moved, as the delete forgets them. */
async function undoKey(deps: Deps, workspaceId: string, id: string): Promise<void> {
  await deps.db.entities.apiKey.delete({ workspaceId, id }).go();
  await forgetCount(deps.db, collections.apiKeysOfWorkspace(workspaceId));
  await forgetUsage(deps, workspaceId);
}

/** A key's record and the key itself, not yet stored. */
async function newKeyItem(deps: Deps, userId: number, workspaceId: string, input: NewApiKey) {
  const now = deps.clock.now();
  const workspace = await openWorkspace(deps, workspaceId);
  const ceiling = input.tierCeiling && tierAbove(workspace.tier, input.tierCeiling) ? input.tierCeiling : workspace.tier;
  const rateLimitTier = input.rateLimitTier ?? ceiling;
  if (tierAbove(rateLimitTier, ceiling)) {
    const whose = ceiling === workspace.tier ? "the workspace's tier" : "your credential's own tier";
    throw new ValidationFailed({ rate_limit_tier: [`must not be above ${whose}, ${ceiling}`] });
  }
  const key = input.plaintext ?? generateApiKey(input.environment ?? 'live');
  const parsed = parseApiKey(key);
  if (!parsed) throw new ValidationFailed({ key: [`must look like sk_live_ or sk_test_ and ${apiKeyRandomLength} letters or digits`] });
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined;
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
    ...retentionOf(expiresAt),
  };
  return { item, key, workspace };
}

/**
 * Creates a key on behalf of a credential, which can never give it more than it has
 * (issuance-limits.ts): no scope it lacks, no tier above its own or the workspace's (as
 * newKeyItem checks), no later expiry, no IP range outside its own list (its own is
 * inherited when none is given), and no live key from a test credential.
 */
export async function createApiKey(deps: Deps, principal: Principal, workspaceId: string, input: NewApiKey) {
  requireUnboundCredential(principal, 'create API keys');
  const scopes = input.scopes ?? defaultKeyScopes;
  requireHeldScopes(principal, scopes, 'A key cannot be given scopes its creator does not hold');
  const environment = input.environment ?? principal.environment;
  requireEnvironment(principal, environment, 'create');
  return issueApiKey(
    deps,
    principal.userId,
    workspaceId,
    {
      ...input,
      scopes,
      environment,
      tierCeiling: principal.limits?.tier,
      expiresAt: expiryWithin(principal, input.expiresAt, deps.clock.now()),
      allowedIps: ipListWithin(principal, input.allowedIps),
    },
    principal,
  );
}

/**
 * The workspace's keys that still exist, in creation order (an expired one included until
 * it is pruned). Keys that finished since the last pruning run (grace period over, TTL
 * passed) are filtered out by the Query itself: the FilterExpression form of isLive.
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
  if (!data || !isLive(data, deps.clock.now())) throw new NotFound('api_key', id);
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
  requireEnvironment(actor, key.environment, 'revoke');
  if (key.userId !== actor.userId) {
    requireRole(await roleIn(deps, workspaceId, actor), ['owner', 'admin'], "revoke another member's key");
  }
  const now = deps.clock.now();
  const revoked = eventIn(workspaceId, actor, 'api_key.revoked', {
    ...apiKeyView(key, now),
    status: 'revoked',
    revoked_at: now.toISOString(),
  } satisfies z.output<typeof revokedApiKey>);
  await goneAsNotFound('api_key', id, () =>
    commitWithEvents(deps, [revoked], ({ apiKey, counter, usageCounter }) => [
      apiKey
        .delete({ workspaceId, id })
        .where((attr, op) => op.exists(attr.keyHash))
        .commit(),
      countOneFewer(counter, collections.apiKeysOfWorkspace(workspaceId)),
      countOneFewerOf(usageCounter, keyOwner(key), 'api_keys', now),
    ]),
  );
}

/**
 * What a rotated key keeps of the old one, within what the rotating credential may hand
 * on: the same name, scopes, tier and environment (refused when beyond the rotator's), the
 * old expiry unless the rotator's ends first, and the part of the old IP list that lies
 * within the rotator's (refused when nothing does).
 */
function successorOf(principal: Principal, old: ApiKeyItem): NewApiKey {
  requireHeldScopes(principal, old.scopes, 'Rotating would issue a key with scopes your credential does not hold');
  const ceiling = principal.limits?.tier;
  if (ceiling && tierAbove(old.rateLimitTier, ceiling)) {
    throw new AccessDenied(`The key's tier, ${old.rateLimitTier}, is above your credential's own, ${ceiling}.`);
  }
  const own = principal.limits?.allowedIps;
  const allowedIps = own?.length && old.allowedIps?.length ? commonIpRanges(old.allowedIps, own) : (old.allowedIps ?? own);
  if (allowedIps && !allowedIps.length) {
    throw new AccessDenied(
      `The key is used from ${old.allowedIps!.join(', ')}, none of which your credential may act from (${own!.join(', ')}).`,
    );
  }
  return {
    name: old.name,
    scopes: old.scopes,
    rateLimitTier: old.rateLimitTier,
    expiresAt: earlierExpiry(old.expiresAt, principal.limits?.expiresAt),
    allowedIps,
    plaintext: generateApiKey(old.environment),
  };
}

/**
 * Issues a new key in place of an active one, the old one working until its grace period ends.
 * Only the key's own user may rotate it, with a credential holding every scope of the key; a
 * grace period of 0, which revokes the old key at once, takes `api-keys:delete` too.
 */
export async function rotateApiKey(
  deps: Deps,
  principal: Principal,
  workspaceId: string,
  id: string,
  gracePeriodHours: number,
): Promise<z.output<typeof rotatedApiKey>> {
  requireUnboundCredential(principal, 'rotate API keys');
  const old = await loadLiveKey(deps, workspaceId, id);
  // Before the key's state: a test key learns nothing of a live key from the answer.
  requireEnvironment(principal, old.environment, 'rotate');
  const now = deps.clock.now();
  const status = keyStatus(old, now);
  if (status === 'grace_period') {
    throw new StateConflict(
      'The key was rotated already and works only until its grace period ends; rotate the key that replaced it.',
      status,
      'rotate',
    );
  }
  if (status === 'expired') throw new StateConflict('The key has expired and cannot be rotated; create a new key.', status, 'rotate');
  // The new key acts for the key's user and is shown to the caller: only that user may rotate.
  if (old.userId !== principal.userId) throw new AccessDenied('Only the user a key belongs to may rotate it; others may revoke it.');
  if (gracePeriodHours === 0) requireScope(principal, 'api-keys:delete');
  const graceEndsAt = new Date(now.getTime() + gracePeriodHours * 3600 * 1000);
  const graceTtl = Math.floor(graceEndsAt.getTime() / 1000);
  const { item, key, workspace } = await newKeyItem(deps, old.userId, workspaceId, successorOf(principal, old));
  // A rotation may take the workspace one key past its limit, for the old key's grace
  // period: at the limit, one key at a time can be rotated, never a chain of them.
  const scope = await workspaceScope(deps, workspace, old.environment);
  const limit = limitNow(scope, 'api_keys', now);
  const oldEnds = graceEndsAt.toISOString();
  // What api_key.rotated carries: the answer without the key itself.
  const rotated: Omit<z.output<typeof rotatedApiKey>, 'key'> = {
    ...apiKeyView(item, now),
    grace_period_ends_at: oldEnds,
    previous_key: { id: old.id, grace_period_ends_at: oldEnds },
  };
  try {
    await madeInOpenWorkspace(
      deps,
      workspaceId,
      () =>
        commitWithEvents(deps, [eventIn(workspaceId, principal, 'api_key.rotated', rotated)], ({ apiKey, counter, usageCounter }) => [
          apiKey.create(item).commit(),
          apiKey
            .patch({ workspaceId, id })
            .set({ graceEndsAt: oldEnds, rotatedToId: item.id, ttl: graceTtl, prunableAt: prunableFrom(graceTtl) })
            .where((attr, op) => op.notExists(attr.graceEndsAt))
            .commit(),
          // The old key stays counted until the pruning job deletes it after its grace period.
          countOneMore(counter, collections.apiKeysOfWorkspace(workspaceId)),
          countOneMoreWithin(usageCounter, scope, 'api_keys', limit === null ? null : limit + 1, now),
        ]),
      () => undoKey(deps, workspaceId, item.id),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const used = await usedOf(deps, scope, 'api_keys', now);
    if (limit !== null && used > limit) requireBelow('api_keys', limit, used);
    // Revoked meanwhile: gone, as a revoked key is everywhere. Else rotated meanwhile.
    await loadLiveKey(deps, workspaceId, id);
    throw new StateConflict('The key was rotated meanwhile; rotate the key that replaced it.', 'grace_period', 'rotate');
  }
  return { ...rotated, key };
}
