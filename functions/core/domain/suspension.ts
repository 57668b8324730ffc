import type { Deps } from '../deps.ts';
import { AccessDenied } from '../errors.ts';
import { eventIn } from '../events/origins.ts';
import { loadUser } from './users.ts';
import { changeWorkspace } from './workspace-changes.ts';
import { workspaceView } from './workspace-view.ts';

/** Platform operations are for platform admins, whatever scopes their credential holds. */
export async function requirePlatformAdmin(deps: Deps, userId: number): Promise<void> {
  const user = await loadUser(deps, userId);
  if (!user.platformAdmin) throw new AccessDenied('Only a platform admin may do this.');
}

/** The workspace with its suspension, as platform admins see it. */
export function adminView(item: Parameters<typeof workspaceView>[0]) {
  return { ...workspaceView(item), suspended_at: item.suspendedAt ?? null, suspended_reason: item.suspendedReason ?? null };
}

/** A platform admin's doing (admin route or CLI), so its events are `live`; `data` is the workspace as admins see it. */
export async function suspendWorkspace(deps: Deps, id: string, reason: string) {
  const updated = await changeWorkspace(deps, id, () => ({
    set: { suspendedAt: deps.clock.now().toISOString(), suspendedReason: reason },
    events: (after) => [eventIn(id, undefined, 'workspace.suspended', adminView(after))],
  }));
  return adminView(updated);
}

export async function resumeWorkspace(deps: Deps, id: string) {
  const updated = await changeWorkspace(deps, id, () => ({
    set: {},
    remove: ['suspendedAt', 'suspendedReason'],
    events: (after) => [eventIn(id, undefined, 'workspace.resumed', adminView(after))],
  }));
  return adminView(updated);
}
