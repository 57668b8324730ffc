import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { goneAsNotFound } from '../store/conditions.ts';
import type { Tier } from '../tiers.ts';
import { adminView } from './suspension.ts';
import { loadUser, userView } from './users.ts';
import { moveGatewayKey } from './workspace-gateway-keys.ts';
import type { WorkspaceItem } from './workspace-view.ts';

/**
 * A platform admin's change of a workspace's tier: the one way above its creator's own
 * tier. Its keys' rate limits follow at once, since a key never counts above its
 * workspace's tier, and so does its API Gateway key's usage plan.
 */
export async function setWorkspaceTier(deps: Deps, id: string, tier: Tier) {
  const { data: current } = await deps.db.entities.workspace.get({ id }).go({ consistent: true });
  if (!current) throw new NotFound('workspace', id);
  // Before the record: should the move fail, the workspace keeps its old tier and the change can simply be sent again.
  await moveGatewayKey(deps, current, tier);
  const { data } = await goneAsNotFound('workspace', id, () =>
    deps.db.entities.workspace.patch({ id }).set({ tier, updatedAt: deps.clock.now().toISOString() }).go({ response: 'all_new' }),
  );
  return adminView(data as WorkspaceItem);
}

/** A platform admin's change of a user's own tier: the ceiling of the workspaces they create. */
export async function setUserTier(deps: Deps, userId: number, tier: Tier) {
  await goneAsNotFound('user', String(userId), () =>
    deps.db.entities.user.patch({ id: userId }).set({ tier, updatedAt: deps.clock.now().toISOString() }).go(),
  );
  return userView(await loadUser(deps, userId));
}
