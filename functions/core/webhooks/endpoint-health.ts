import { commitWithEvents } from '#core/events/outbox';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import { hotPath } from '#core/store/database';
import type { WebhookEndpointItem } from '#core/store/items';
import { webhookEndpointView } from './endpoint-view.ts';

/** Where a delivery's end leaves it in its endpoint's counters. */
export type CountedOutcome = 'success' | 'failed';

/**
 * Counts an ended delivery once per delivery: one retried by hand moves its count (`before`)
 * rather than adding one, so that retries never bring an endpoint nearer to being disabled. The
 * failure that reaches `disableAfter` disables the endpoint on condition that it is active, so
 * that this happens once however many workers fail together.
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
