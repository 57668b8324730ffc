import { commitWithEvents } from '#core/events/outbox';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import { hotPath } from '#core/store/database';
import type { WebhookEndpointItem } from '#core/store/items';
import { webhookEndpointView } from './endpoint-view.ts';

/** Where a delivery's end leaves it in its endpoint's counters. */
export type CountedOutcome = 'success' | 'failed';

/**
 * Counts a delivery that ended on its endpoint, by atomic ADDs: the counters count
 * deliveries, not attempts. `before` is what the delivery counted as until now (a failed
 * delivery retried by hand), recorded with its outcome so that each end is counted once.
 * A first end adds one: a success resets `consecutive_failures`, a failure adds one to it.
 * A manual retry that fails again changes no counter, so retries never bring an endpoint
 * nearer to being disabled; one that succeeds moves the delivery from `failure_count` to
 * `success_count` and resets `consecutive_failures`. The failure that brings
 * `consecutive_failures` to `disableAfter` disables the endpoint and emits
 * `webhook.disabled`, in one transaction and on condition that the endpoint is still
 * active, so it happens once however many workers fail at the same moment. An endpoint
 * deleted meanwhile has nothing to count.
 */
export async function countEndedDelivery(
  deps: Deps,
  endpoint: WebhookEndpointItem,
  before: CountedOutcome | undefined,
  outcome: CountedOutcome,
  disableAfter: number,
): Promise<void> {
  const key = { workspaceId: endpoint.workspaceId, environment: endpoint.environment, id: endpoint.id };
  const at = deps.clock.now().toISOString();
  const { webhookEndpoint } = deps.db.entities;
  const succeeded = outcome === 'success';
  let counted: Partial<WebhookEndpointItem> | null;
  try {
    const patch = webhookEndpoint.patch(key);
    const update =
      before === outcome
        ? patch.set({ lastDeliveryAt: at })
        : succeeded
          ? patch
              .add({ successCount: 1, ...(before === 'failed' && { failureCount: -1 }) })
              .set({ consecutiveFailures: 0, lastDeliveryAt: at })
          : patch.add({ failureCount: 1, consecutiveFailures: 1 }).set({ lastDeliveryAt: at });
    counted = (await update.go({ ...hotPath, response: 'all_new' })).data;
  } catch (error) {
    if (isConditionFailure(error)) return;
    throw error;
  }
  if (succeeded || before === outcome || !counted?.isActive || (counted.consecutiveFailures ?? 0) < disableAfter) return;
  const current = { ...endpoint, ...counted } as WebhookEndpointItem;
  try {
    await commitWithEvents(
      deps,
      [
        {
          type: 'webhook.disabled',
          origin: { workspaceId: endpoint.workspaceId, environment: endpoint.environment },
          data: webhookEndpointView({ ...current, isActive: false, disabledAt: at, updatedAt: at }),
        },
      ],
      ({ webhookEndpoint: endpoints }) => [
        endpoints
          .patch(key)
          .set({ isActive: false, disabledAt: at, updatedAt: at })
          .where((attr, op) => op.eq(attr.isActive, true))
          .commit(),
      ],
    );
  } catch (error) {
    // Disabled already (by another failure, or by its owner): nothing more to say.
    if (!isConditionFailure(error)) throw error;
  }
}
