import type { Deps } from '../deps.ts';
import { commitWithEvents } from '../events/outbox.ts';
import { isConditionFailure } from '../store/conditions.ts';
import { hotPath } from '../store/database.ts';
import { webhookEndpointView, type WebhookEndpointItem } from './endpoint-view.ts';

/**
 * Counts a delivery that ended on its endpoint, by atomic ADDs: a success resets
 * `consecutive_failures`, a failure adds one, and the failure that brings it to
 * `disableAfter` disables the endpoint and emits `webhook.disabled`, in one transaction and
 * on condition that the endpoint is still active, so it happens once however many
 * workers fail at the same moment. An endpoint deleted meanwhile has nothing to count.
 */
export async function countEndedDelivery(deps: Deps, endpoint: WebhookEndpointItem, succeeded: boolean, disableAfter: number): Promise<void> {
  const key = { workspaceId: endpoint.workspaceId, environment: endpoint.environment, id: endpoint.id };
  const at = deps.clock.now().toISOString();
  const { webhookEndpoint } = deps.db.entities;
  let counted: Partial<WebhookEndpointItem> | null;
  try {
    const update = succeeded
      ? webhookEndpoint.patch(key).add({ successCount: 1 }).set({ consecutiveFailures: 0, lastDeliveryAt: at })
      : webhookEndpoint.patch(key).add({ failureCount: 1, consecutiveFailures: 1 }).set({ lastDeliveryAt: at });
    counted = (await update.go({ ...hotPath, response: 'all_new' })).data;
  } catch (error) {
    if (isConditionFailure(error)) return;
    throw error;
  }
  if (succeeded || !counted?.isActive || (counted.consecutiveFailures ?? 0) < disableAfter) return;
  const current = { ...endpoint, ...counted } as WebhookEndpointItem;
  try {
    await commitWithEvents(deps, [{ type: 'webhook.disabled', origin: { workspaceId: endpoint.workspaceId, environment: endpoint.environment }, data: webhookEndpointView({ ...current, isActive: false, disabledAt: at, updatedAt: at }) }], ({ webhookEndpoint: endpoints }) => [
      endpoints
        .patch(key)
        .set({ isActive: false, disabledAt: at, updatedAt: at })
        .where((attr, op) => op.eq(attr.isActive, true))
        .commit(),
    ]);
  } catch (error) {
    // Disabled already (by another failure, or by its owner): nothing more to say.
    if (!isConditionFailure(error)) throw error;
  }
}
