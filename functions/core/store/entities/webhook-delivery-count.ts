import { createSchema } from 'electrodb';

/**
 * How many of an endpoint's deliveries are in each status (and `all` of them), counted by
 * the UTC day on which they expire, so that a deliveries list's total is a sum over the
 * days still to come: at most 31 small items, read by one Query in the endpoint's own
 * partition, whatever the number of deliveries; and deliveries leaving by TTL take their
 * counts with them without any write. Moved by atomic ADDs (core/webhooks/delivery-counts.ts).
 *
 * | access pattern                       | index | pk              | sk                              |
 * |--------------------------------------|-------|-----------------|---------------------------------|
 * | one status on one expiry day         | table | WH#<webhookId>  | DELCOUNT#<status>#<expiryDay>   |
 * | one status over the days from today  | table | WH#<webhookId>  | DELCOUNT#<status># (range)      |
 */
export const webhookDeliveryCountSchema = createSchema({
  model: { entity: 'webhookDeliveryCount', version: '1', service: 'tenant-api' },
  attributes: {
    webhookId: { type: 'string', required: true },
    /** A delivery status, or `all`. */
    status: { type: 'string', required: true },
    /** The expiry day as days since the epoch, zero-padded to sort as text. */
    expiryDay: { type: 'string', required: true },
    value: { type: 'number', required: true, default: 0 },
    /** Epoch seconds: the day after the counted deliveries expired; never read by then. */
    ttl: { type: 'number' },
  },
  indexes: {
    byWebhook: {
      pk: { field: 'pk', composite: ['webhookId'], template: 'WH#${webhookId}', casing: 'none' },
      sk: { field: 'sk', composite: ['status', 'expiryDay'], template: 'DELCOUNT#${status}#${expiryDay}', casing: 'none' },
    },
  },
});
