import { defineFunction } from '#core/adapters/function-definition';

/** The webhook-fanout function: read by its index.ts, the local runner and the CDK stack. */
export const webhookFanoutFunction = defineFunction({
  name: 'webhook-fanout',
  ports: ['deliveryQueue'],
  // Up to 100 events a batch, each fanned out to every subscribed endpoint.
  timeoutSeconds: 60,
  tableAccess: {
    table: ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
