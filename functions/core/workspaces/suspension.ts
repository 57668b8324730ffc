import type * as z from 'zod/mini';
import { eventIn } from '#core/events/origins';
import { StateConflict } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import type { WorkspaceItem } from '#core/store/items';
import { workspaceView } from '#core/tenancy/workspace-view';
import type { adminWorkspace } from './admin-schemas.ts';
import { changeWorkspace } from './workspace-changes.ts';

/** The workspace with its suspension and billing status, as platform admins see it. */
export function adminView(item: WorkspaceItem): z.output<typeof adminWorkspace> {
  return {
    ...workspaceView(item),
    suspended_at: item.suspendedAt ?? null,
    suspended_reason: item.suspendedReason ?? null,
    billing_status: item.unpaidAt ? 'unpaid' : 'paid',
    unpaid_since: item.unpaidAt ?? null,
  };
}

/**
 * A platform admin's doing (admin route or CLI), so its events are `live`; `data` is the
 * workspace as admins see it. A suspended workspace given a new reason keeps its
 * suspension, from when it began, with the new reason (and says so in the event); the same
 * reason again changes nothing and is refused, with no event.
 */
export async function suspendWorkspace(deps: Deps, id: string, reason: string) {
  const updated = await changeWorkspace(deps, id, (current) => {
    if (current.suspendedAt && current.suspendedReason === reason) {
      throw new StateConflict('The workspace is suspended already, for this reason.', 'suspended', 'suspend');
    }
    return {
      set: { suspendedAt: current.suspendedAt ?? deps.clock.now().toISOString(), suspendedReason: reason },
      events: (after) => [eventIn(id, undefined, 'workspace.suspended', adminView(after))],
    };
  });
  return adminView(updated);
}

/** Lifts a suspension; a workspace that is not suspended is refused, with no event. */
export async function resumeWorkspace(deps: Deps, id: string) {
  const updated = await changeWorkspace(deps, id, (current) => {
    if (!current.suspendedAt) throw new StateConflict('The workspace is not suspended.', 'active', 'resume');
    return {
      set: {},
      remove: ['suspendedAt', 'suspendedReason'],
      events: (after) => [eventIn(id, undefined, 'workspace.resumed', adminView(after))],
    };
  });
  return adminView(updated);
}
