import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { type GatewayKey, GatewayKeyLeftBehind } from '#core/ports/gateway-keys';
import { ignoreConditionFailure, isConditionFailure } from '#core/store/conditions';

/**
 * Each workspace's own API Gateway key, while the budget lasts (GATEWAY_KEY_BUDGET, below
 * the region's 10,000): the budget is one counter item, `COUNTER#gateway-keys`, taken by an
 * atomic conditional ADD before a key is made and given back when one is removed. A workspace
 * created past it has no key and shares its tier's (the stack's shared keys, credentials/verify-credential.ts).
 */
const budgetCounter = 'gateway-keys';

/** Takes one key of the budget: false when it is spent. */
async function claimBudget(deps: Deps): Promise<boolean> {
  try {
    await deps.db.entities.counter
      .update({ name: budgetCounter })
      .add({ value: 1 })
      .where((attr, op) => `${op.notExists(attr.value)} OR ${op.lt(attr.value, deps.gatewayKeys.budget)}`)
      .go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

async function releaseBudget(deps: Deps): Promise<void> {
  await deps.db.entities.counter
    .update({ name: budgetCounter })
    .add({ value: -1 })
    .where((attr, op) => op.gt(attr.value, 0))
    .go()
    .catch(ignoreConditionFailure);
}

/**
 * A new key in the tier's plan, or none when the budget or the region's keys are spent. A
 * key left behind by a failed create keeps its place until the reconciliation job deletes it.
 */
async function issueGatewayKey(deps: Deps, workspaceId: string, tier: Tier): Promise<GatewayKey | undefined> {
  if (!(await claimBudget(deps))) return undefined;
  let key: GatewayKey | undefined;
  try {
    key = await deps.gatewayKeys.create(workspaceId, tier);
  } catch (error) {
    if (!(error instanceof GatewayKeyLeftBehind)) await releaseBudget(deps);
    throw error;
  }
  if (!key) await releaseBudget(deps);
  return key;
}

/**
 * Makes the workspace's key, then stores the workspace with it (`store`); if storing fails,
 * the key is removed again, so that no key outlives a workspace that was never made.
 */
export async function withGatewayKey<T>(deps: Deps, workspaceId: string, tier: Tier, store: (key?: GatewayKey) => Promise<T>): Promise<T> {
  const key = await issueGatewayKey(deps, workspaceId, tier);
  try {
    return await store(key);
  } catch (error) {
    await removeGatewayKey(deps, key);
    throw error;
  }
}

/**
 * Removes a workspace's own key (none: it shared) and gives its place in the budget back,
 * only if this call deleted it: of two removals at once (a workspace's deletion and the
 * reconciliation job), one gives the place back. True when it deleted one.
 */
export async function removeGatewayKey(deps: Deps, key: Pick<GatewayKey, 'id'> | undefined): Promise<boolean> {
  if (!key || !(await deps.gatewayKeys.remove(key))) return false;
  await releaseBudget(deps);
  return true;
}

/** Moves a workspace's own key to the plan of its new tier; a sharer needs nothing, its tier picks its shared key. */
export async function moveGatewayKey(deps: Deps, workspace: { tier: Tier; gatewayKey?: GatewayKey }, to: Tier): Promise<void> {
  if (workspace.gatewayKey && workspace.tier !== to) await deps.gatewayKeys.move(workspace.gatewayKey, workspace.tier, to);
}
