import type { Deps } from '#core/ports/deps';
import type { ListedGatewayKey } from '#core/ports/gateway-keys';
import { isConditionFailure } from '#core/store/conditions';
import type { WorkspaceItem } from '#core/store/items';
import { removeGatewayKey, withGatewayKey } from '#core/workspaces/workspace-gateway-keys';

/**
 * How old a key must be before the job judges it. A workspace's key is made before the
 * transaction that stores the workspace (workspaces.ts), so a younger key may belong to a
 * workspace being created right now: this is twice the longest any function may run.
 */
export const settlingMs = 30 * 60_000;

/** Sharers read per Query page. */
const sharersPerPage = 25;

export interface ReconciliationCounts {
  /** Keys whose workspace is gone, or has another key or none: deleted, and their places in the budget given back. */
  orphansRemoved: number;
  /** Keys of workspaces that were outside their tier's plan: moved into it. */
  keysMoved: number;
  /** Workspaces that shared their tier's key and now have one of their own. */
  sharersGivenKeys: number;
}

export interface ReconciliationOptions {
  /** Asked before each key and each sharer: true ends the run early (a Lambda near its timeout); the next run goes on. */
  shouldStop?: () => boolean;
}

/**
 * Brings API Gateway's workspace keys and the table back together after calls that failed
 * half-way (docs/tenancy-and-limits.md, Usage plans at the edge). Each step is conditional, as
 * the request paths' own are, so that a run racing another or a request never passes the key
 * budget nor gives a place back twice.
 */
export async function reconcileGatewayKeys(
  deps: Deps,
  options: ReconciliationOptions = {},
): Promise<ReconciliationCounts & { complete: boolean }> {
  const stop = options.shouldStop ?? (() => false);
  const counts: ReconciliationCounts = { orphansRemoved: 0, keysMoved: 0, sharersGivenKeys: 0 };
  const now = deps.clock.now().getTime();
  const settled = (await deps.gatewayKeys.list()).filter((key) => now - key.createdAt.getTime() >= settlingMs);
  const workspaces = await workspacesOf(deps, settled);
  for (const key of settled) {
    if (stop()) return { ...counts, complete: false };
    const workspace = workspaces.get(key.workspaceId);
    if (workspace?.gatewayKey?.id !== key.id) {
      if (await removeGatewayKey(deps, key)) counts.orphansRemoved++;
    } else if (key.tier !== workspace.tier) {
      await deps.gatewayKeys.move(key, key.tier, workspace.tier);
      counts.keysMoved++;
    }
  }

  const sharers = (cursor: string | null) =>
    deps.db.entities.workspace.query.bySharing({ sharingBucket: 'gatewayKey' }).go({ cursor, limit: sharersPerPage });
  let cursor: string | null = null;
  do {
    const { data, cursor: next } = await sharers(cursor);
    for (const sharer of data) {
      if (stop()) return { ...counts, complete: false };
      const outcome = await giveOwnKey(deps, sharer);
      if (outcome === 'budget spent') return { ...counts, complete: true };
      if (outcome === 'given') counts.sharersGivenKeys++;
    }
    cursor = next;
  } while (cursor);
  return { ...counts, complete: true };
}

/** The workspaces the keys were made for, read consistently, by id (absent: gone). */
async function workspacesOf(deps: Deps, keys: readonly ListedGatewayKey[]): Promise<Map<string, WorkspaceItem>> {
  const found = new Map<string, WorkspaceItem>();
  let pending = [...new Set(keys.map((key) => key.workspaceId))].map((id) => ({ id }));
  for (let attempt = 1; pending.length; attempt++) {
    const { data, unprocessed } = await deps.db.entities.workspace.get(pending).go({ consistent: true });
    for (const item of data) found.set(item.id, item);
    pending = unprocessed.map(({ id }) => ({ id }));
    // Left unread under throttling: read again, after a pause that grows.
    if (pending.length) await new Promise((done) => setTimeout(done, 50 * attempt));
  }
  return found;
}

/** A key of its own for a workspace that shares, if the budget has room (withGatewayKey takes the place and gives it back on failure). */
async function giveOwnKey(deps: Deps, sharer: WorkspaceItem): Promise<'given' | 'skipped' | 'budget spent'> {
  // The index trails the table: one given a key a moment ago is passed over before a key is made for it.
  const { data: current } = await deps.db.entities.workspace.get({ id: sharer.id }).go({ consistent: true });
  if (!current || current.gatewayKey) return 'skipped';
  try {
    return await withGatewayKey(deps, current.id, current.tier, async (key) => {
      if (!key) return 'budget spent';
      await deps.db.entities.workspace
        .patch({ id: current.id })
        .set({ gatewayKey: key })
        .remove(['sharingSince', 'sharingBucket'])
        .where((attr, op) => `${op.notExists(attr.gatewayKey)} AND ${op.eq(attr.tier, current.tier)}`)
        .go({ response: 'none' });
      return 'given';
    });
  } catch (error) {
    // Deleted, given a key by another run, or re-tiered meanwhile: withGatewayKey deleted the new key again.
    if (isConditionFailure(error)) return 'skipped';
    throw error;
  }
}
