import { eventIn } from '#core/events/origins';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import type { WorkspaceItem } from '#core/store/items';
import { workspaceView } from '#core/tenancy/workspace-view';
import type { billingStatuses } from './admin-schemas.ts';
import { adminView } from './suspension.ts';
import { changeWorkspace } from './workspace-changes.ts';

export type BillingStatus = (typeof billingStatuses)[number];

/**
 * A platform admin marks a workspace unpaid, or paid again (admin route or CLI): while it is
 * unpaid, requests acting in it answer 402 PAYMENT_REQUIRED but for the routes that let a
 * tenant settle or leave (http/acting-workspace.ts). Like a tier change it is `live` and
 * reported as `workspace.updated`; the status it has already changes nothing, with no event.
 */
export async function setBillingStatus(deps: Deps, id: string, status: BillingStatus) {
  const { data: current } = await deps.db.entities.workspace.get({ id }).go({ consistent: true });
  if (!current) throw new NotFound('workspace', id);
  if ((status === 'unpaid') === !!current.unpaidAt) return adminView(current);
  const events = (after: WorkspaceItem) => [eventIn(id, undefined, 'workspace.updated', workspaceView(after))];
  const updated = await changeWorkspace(
    deps,
    id,
    () => {
      const updatedAt = deps.clock.now().toISOString();
      return status === 'unpaid'
        ? { set: { unpaidAt: updatedAt, updatedAt }, events }
        : { set: { updatedAt }, remove: ['unpaidAt'], events };
    },
    current,
  );
  return adminView(updated);
}
