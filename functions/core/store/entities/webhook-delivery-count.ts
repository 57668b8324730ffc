import { createSchema } from 'electrodb';

/**
 * An endpoint's deliveries per status, counted by the UTC day they expire: a list's total is a
 * sum of at most 31 small items, and deliveries leaving by TTL take their counts with them
 * without a write (webhooks/delivery-counts.ts).
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
