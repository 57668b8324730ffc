import type * as z from 'zod/mini';
import type { ListSource } from '#core/lists/list-source';
import { CannotRetry, NotFound } from '#core/platform/errors';
import { idsCreatedWithin } from '#core/platform/ids';
import { telemetry } from '#core/platform/telemetry';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import { hotPath } from '#core/store/database';
import type { DeliveryStatus } from '#core/store/entities/delivery-status';
import type { WebhookDeliveryItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import type { AttemptRecord } from './attempt.ts';
import { deliveryCount, listedFromTtl, moveDeliveryCounts } from './delivery-counts.ts';
import type { retriedDelivery, webhookDelivery } from './delivery-schemas.ts';
import { type EndpointOwner, loadWebhookEndpoint, subscribesTo } from './endpoint-view.ts';
import { maxAttempts } from './ladder.ts';
import { messageOf, wakeDelivery } from './wake.ts';

/**
 * How many attempts a delivery has had: those made, and while `pending` the one queued
 * (a manual retry counts its attempt at once, as the spec's state table says). A delivery
 * `retrying` has made one fewer than the attempt it awaits, which the record keeps for the
 * queue's messages: after 5 failed attempts it shows 5, the 6th due at `next_retry_at`.
 */
const attemptsOf = (item: Pick<WebhookDeliveryItem, 'status' | 'attempt'>): number =>
  item.status === 'retrying' ? item.attempt - 1 : item.attempt;

export function deliveryView(item: WebhookDeliveryItem): z.output<typeof webhookDelivery> {
  const attempts = attemptsOf(item);
  return {
    id: item.id,
    webhook_id: item.webhookId,
    event_id: item.eventId,
    event_type: item.eventType,
    status: item.status,
    attempt: attempts,
    attempts,
    response_code: item.responseCode ?? null,
    status_code: item.responseCode ?? null,
    response_excerpt: item.responseExcerpt ?? null,
    error: item.error ?? null,
    response_time_ms: item.responseTimeMs ?? null,
    attempt_history: (item.attempts as AttemptRecord[] | undefined) ?? [],
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    delivered_at: item.deliveredAt ?? null,
    last_attempt_at: item.lastAttemptAt ?? null,
    next_retry_at: item.status === 'retrying' ? (item.nextRetryAt ?? null) : null,
  };
}

/**
 * An endpoint's deliveries (or those in one status, from the status index), in id order,
 * which is their events' order: the handler reads it newest first. Deliveries leave the
 * list on the day they expire, as their counts do (delivery-counts.ts).
 */
export function deliveriesOf(
  deps: Deps,
  webhookId: string,
  status?: DeliveryStatus,
): ListSource<WebhookDeliveryItem, ReturnType<typeof deliveryView>> {
  const { webhookDelivery } = deps.db.entities;
  const listedFrom = listedFromTtl(deps.clock.now());
  const read = status
    ? keyOrderReader(webhookDelivery, 'byStatus', (range) => {
        const query = webhookDelivery.query.byStatus({ webhookId, status });
        return (range ? query.between({ id: range.from }, { id: range.to }) : query).where((attr, op) => op.gte(attr.ttl, listedFrom));
      })
    : keyOrderReader(webhookDelivery, 'byWebhook', (range) => {
        const query = webhookDelivery.query.byWebhook({ webhookId });
        return (range ? query.between({ id: range.from }, { id: range.to }) : query).where((attr, op) => op.gte(attr.ttl, listedFrom));
      });
  return {
    collection: `deliveries-of-webhook:${webhookId}${status ? `:${status}` : ''}`,
    count: () => deliveryCount(deps, webhookId, status ?? 'all'),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('delivery', after, before),
    read,
    view: async (rows) => rows.map(deliveryView),
  };
}

/** A delivery of endpoint `webhookId` (its owner checked by the caller), or 404: one of another endpoint, or gone from the list, is as absent as one that never was. */
async function loadDelivery(deps: Deps, webhookId: string, deliveryId: string): Promise<WebhookDeliveryItem> {
  const { data } = await deps.db.entities.webhookDelivery.get({ webhookId, id: deliveryId }).go({ ...hotPath, consistent: true });
  if (!data || data.ttl < listedFromTtl(deps.clock.now())) throw new NotFound('delivery', deliveryId);
  return data;
}

/**
 * GET /webhooks/{id}/deliveries/{delivery_id}: one delivery of an endpoint of the owner's
 * workspace and environment, as the list shows it; 404 for a foreign endpoint's, as for its list.
 */
export async function getDelivery(
  deps: Deps,
  owner: EndpointOwner,
  webhookId: string,
  deliveryId: string,
): Promise<z.output<typeof webhookDelivery>> {
  await loadWebhookEndpoint(deps, owner, webhookId);
  return deliveryView(await loadDelivery(deps, webhookId, deliveryId));
}

/**
 * A manual retry, per the state table (docs/webhooks.md, Deliveries and retries): only a
 * `failed` delivery with attempts left goes back to `pending`, one attempt higher, and is
 * queued at once. Any other is 400 cannot_retry, as is one whose endpoint is disabled or no
 * longer subscribes to its type.
 */
export async function retryDelivery(
  deps: Deps,
  owner: EndpointOwner,
  webhookId: string,
  deliveryId: string,
): Promise<z.output<typeof retriedDelivery>> {
  const endpoint = await loadWebhookEndpoint(deps, owner, webhookId);
  const delivery = await loadDelivery(deps, webhookId, deliveryId);
  requireRetryable(delivery);
  // Sent now, the attempt would end at once unsent and use up one of the six.
  if (!subscribesTo(endpoint, delivery.eventType)) {
    throw cannotRetry(
      `The endpoint no longer subscribes to ${delivery.eventType}: a delivery is sent only while its endpoint subscribes to its event's type.`,
      delivery,
    );
  }
  if (!endpoint.isActive)
    throw cannotRetry('The webhook endpoint is disabled: set is_active to true (PATCH /webhooks/{id}), then retry.', delivery);
  const now = deps.clock.now().toISOString();
  let retried: WebhookDeliveryItem;
  try {
    const { data } = await deps.db.entities.webhookDelivery
      .patch({ webhookId, id: deliveryId })
      .set({ status: 'pending', attempt: delivery.attempt + 1, dueAt: now, updatedAt: now })
      .remove(['nextRetryAt'])
      .where((attr, op) => `${op.eq(attr.status, 'failed')} AND ${op.eq(attr.attempt, delivery.attempt)}`)
      .go({ ...hotPath, response: 'all_new' });
    retried = data as WebhookDeliveryItem;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw cannotRetry('The delivery was retried meanwhile.', await loadDelivery(deps, webhookId, deliveryId));
  }
  await moveDeliveryCounts(deps, webhookId, delivery.ttl, { failed: -1, pending: 1 });
  try {
    await wakeDelivery(deps, messageOf(retried), new Date(now));
  } catch (error) {
    // The delivery is pending and due: the sweeper queues it within a few minutes.
    telemetry().logger.warn('Queueing a retried delivery failed; the sweeper will.', { deliveryId, error });
  }
  return { id: deliveryId, status: 'pending', attempt: deliveryView(retried).attempt };
}

/** A refusal of a manual retry, with the delivery's state and attempts as GET shows them (a `retrying` one's attempts made, not the one it awaits). */
function cannotRetry(message: string, delivery: WebhookDeliveryItem): CannotRetry {
  const { status, attempt } = deliveryView(delivery);
  return new CannotRetry(message, status, attempt);
}

function requireRetryable(delivery: WebhookDeliveryItem) {
  const { status, attempt } = delivery;
  if (status === 'success') throw cannotRetry('The delivery succeeded already.', delivery);
  if (status !== 'failed') throw cannotRetry(`The delivery is ${status}: its next attempt is on its way already.`, delivery);
  if (attempt >= maxAttempts) throw cannotRetry(`The delivery used all ${maxAttempts} attempts.`, delivery);
}
