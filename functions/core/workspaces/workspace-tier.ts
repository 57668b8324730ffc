import { eventIn } from '#core/events/origins';
import { NotFound } from '#core/platform/errors';
import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { workspaceView } from '#core/tenancy/workspace-view';
import { changeUser } from '#core/users/user-changes';
import { userView } from '#core/users/user-view';
import { adminView } from './suspension.ts';
import { changeWorkspace } from './workspace-changes.ts';
import { moveGatewayKey } from './workspace-gateway-keys.ts';

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
  // A platform admin's doing, so `live`; the event carries the workspace as its members see it.
  const updated = await changeWorkspace(
    deps,
    id,
    () => ({
      set: { tier, updatedAt: deps.clock.now().toISOString() },
      events: (after) => [eventIn(id, undefined, 'workspace.updated', workspaceView(after))],
    }),
    current,
  );
  return adminView(updated);
}

/** A platform admin's change of a user's own tier: the ceiling of the workspaces they create. */
export async function setUserTier(deps: Deps, userId: number, tier: Tier) {
  return userView(await changeUser(deps, userId, undefined, () => ({ tier })));
}
