import { isEventType } from '#core/events/event-types';
import { subscribes } from '#core/events/subscriptions';
import { ConcurrencyLimit } from '#core/platform/concurrency-limit';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import { hotPath } from '#core/store/database';
import { leavesDueIndex } from '#core/store/due-work';
import type { WebhookDeliveryItem, WebhookEndpointItem, WebhookEventItem } from '#core/store/items';
import { moveDeliveryCounts } from './delivery-counts.ts';
import { deliveryIdOf } from './delivery-ids.ts';
import { isRetired } from './endpoint-view.ts';
import { messageOf } from './wake.ts';

/** Deliveries created at once (an enterprise workspace has up to 1,000 endpoints), and messages per queue call. */
const parallelCreates = 25;
const messagesPerSend = 100;

/**
 * Fans events out: a delivery and a message per active endpoint subscribed, then the event
 * leaves the due index. Safe to repeat, as the stream and the sweeper may hand an event over
 * twice: a delivery's id derives from the event and the endpoint, and it is created only if
 * absent.
 */
export async function fanOut(deps: Deps, eventIds: readonly string[]): Promise<void> {
  for (const eventId of new Set(eventIds)) await fanOutEvent(deps, eventId);
}

async function fanOutEvent(deps: Deps, eventId: string) {
  const { webhookEvent } = deps.db.entities;
  const { data: event } = await webhookEvent.get({ id: eventId }).go({ ...hotPath, consistent: true });
  if (!event || event.fannedOutAt) return;
  const now = deps.clock.now();
  if (event.ttl > now.getTime() / 1000) {
    const deliveries = (await subscribersOf(deps, event, now)).map((endpoint) => deliveryOf(event, endpoint, now));
    await createAll(deps, deliveries);
    const messages = deliveries.map(messageOf);
    for (let i = 0; i < messages.length; i += messagesPerSend) await deps.deliveryQueue.send(messages.slice(i, i + messagesPerSend), 0);
  }
  // An expired event is past every retry its deliveries could have: it leaves the index undelivered.
  await webhookEvent
    .patch({ id: eventId })
    .set({ fannedOutAt: now.toISOString() })
    .remove([...leavesDueIndex])
    .go({ ...hotPath, response: 'none' });
}

/**
 * The endpoints that receive the event: its workspace's, in its environment, active, not
 * retired, subscribed to its type, and there when it happened. An endpoint made after the
 * event hears nothing of it, however late the fan-out runs (the sweeper's, a restart's).
 */
async function subscribersOf(deps: Deps, event: WebhookEventItem, now: Date): Promise<WebhookEndpointItem[]> {
  const { type } = event;
  if (!isEventType(type)) return [];
  const { data } = await deps.db.entities.webhookEndpoint.query
    .byWorkspace({ workspaceId: event.workspaceId, environment: event.environment })
    .go({ ...hotPath, pages: 'all' });
  return data.filter(
    (endpoint) =>
      endpoint.isActive && !isRetired(endpoint, now) && endpoint.createdAt <= event.createdAt && subscribes(endpoint.events, type),
  );
}

/** An event's delivery to an endpoint, due at once; it is born with its event (its created_at and its id's time are the event's). */
function deliveryOf(event: WebhookEventItem, endpoint: WebhookEndpointItem, now: Date): WebhookDeliveryItem {
  return {
    id: deliveryIdOf(event.id, event.createdAt, endpoint.id),
    webhookId: endpoint.id,
    workspaceId: event.workspaceId,
    environment: event.environment,
    eventId: event.id,
    eventType: event.type,
    status: 'pending',
    attempt: 1,
    createdAt: event.createdAt,
    updatedAt: now.toISOString(),
    ttl: event.ttl,
    dueAt: now.toISOString(),
  };
}

/** Creates each delivery that does not exist yet, and counts those it made. */
async function createAll(deps: Deps, deliveries: readonly WebhookDeliveryItem[]) {
  const lanes = new ConcurrencyLimit(parallelCreates);
  await Promise.all(
    deliveries.map((delivery) =>
      lanes.run(async () => {
        try {
          await deps.db.entities.webhookDelivery.create(delivery).go({ ...hotPath, response: 'none' });
        } catch (error) {
          if (isConditionFailure(error)) return;
          throw error;
        }
        await moveDeliveryCounts(deps, delivery.webhookId, delivery.ttl, { all: 1, pending: 1 });
      }),
    ),
  );
}
