import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';
import { deliveryStatuses } from './delivery-status.ts';
import { dueAttributes, dueIndex } from './due.ts';

/**
 * One event's delivery to one endpoint, the truth of where it stands on the ladder (the queue
 * only wakes the worker). Its id comes from the event and the endpoint
 * (webhooks/delivery-ids.ts), so that fanning an event out twice creates it once.
 *
 * | access pattern                 | index | pk                      | sk          |
 * |--------------------------------|-------|-------------------------|-------------|
 * | delivery by id                 | table | WH#<webhookId>          | DEL#<id>    |
 * | deliveries of an endpoint      | table | WH#<webhookId>          | DEL#        |
 * | ... with a status              | gsi1  | WH#<webhookId>#<status> | DEL#<id>    |
 * | overdue deliveries             | gsi2  | DUE#webhookDelivery     | <dueAt>     |
 */
export const webhookDeliverySchema = createSchema({
  model: { entity: 'webhookDelivery', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    webhookId: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    eventId: { type: 'string', required: true },
    eventType: { type: 'string', required: true },
    status: { type: deliveryStatuses, required: true },
    /**
     * The number of the attempt made last, or about to be made (1 to 6): while `retrying`,
     * the one awaited, which the queue's messages name (the API shows the attempts made).
     */
    attempt: { type: 'number', required: true },
    /**
     * What the delivery counts as in its endpoint's counters, once an attempt ended it: set
     * in the same write as the outcome, so that a manual retry moves its count rather than
     * adding one (endpoint-health.ts).
     */
    countedAs: { type: ['success', 'failed'] as const },
    /** The receiver's HTTP status of the last attempt, if it answered. */
    responseCode: { type: 'number' },
    /** The start of the receiver's answer to the last attempt (bounded), or why there was none. */
    responseExcerpt: { type: 'string' },
    error: { type: 'string' },
    responseTimeMs: { type: 'number' },
    /** Every attempt so far: `{ attempt, at, status_code?, error?, response_time_ms }`. */
    attempts: { type: 'any' },
    deliveredAt: { type: 'string' },
    lastAttemptAt: { type: 'string' },
    nextRetryAt: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    updatedAt: { type: 'string', required: true },
    /** Epoch seconds: kept 30 days, as its event. */
    ttl: { type: 'number', required: true },
    ...dueAttributes('webhookDelivery'),
  },
  indexes: {
    byWebhook: {
      pk: { field: 'pk', composite: ['webhookId'], template: 'WH#${webhookId}', casing: 'none' },
      sk: { field: 'sk', composite: ['id'], template: 'DEL#${id}', casing: 'none' },
    },
    byStatus: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['webhookId', 'status'], template: 'WH#${webhookId}#${status}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['id'], template: 'DEL#${id}', casing: 'none' },
    },
    byDueAt: dueIndex,
  },
});
