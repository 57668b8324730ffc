import type { Deps } from '../deps.ts';
import { AccessDenied } from '../errors.ts';
import { goneAsNotFound } from '../store/conditions.ts';
import { loadUser } from './users.ts';
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

export async function suspendWorkspace(deps: Deps, id: string, reason: string) {
  const { data } = await goneAsNotFound('workspace', id, () =>
    deps.db.entities.workspace
      .patch({ id })
      .set({ suspendedAt: deps.clock.now().toISOString(), suspendedReason: reason })
      .go({ response: 'all_new' }),
  );
  return adminView(data as Parameters<typeof workspaceView>[0]);
}

export async function resumeWorkspace(deps: Deps, id: string) {
  const { data } = await goneAsNotFound('workspace', id, () =>
    deps.db.entities.workspace.patch({ id }).remove(['suspendedAt', 'suspendedReason']).go({ response: 'all_new' }),
  );
  return adminView(data as Parameters<typeof workspaceView>[0]);
}
