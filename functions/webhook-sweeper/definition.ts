import { defineFunction } from '#core/adapters/function-definition';

/** The webhook-sweeper function: read by its index.ts, the local runner and the CDK stack. */
export const webhookSweeperFunction = defineFunction({
  name: 'webhook-sweeper',
  ports: ['deliveryQueue', 'retryScheduler'],
  // Runs every minute; what it leaves undone, the next run finds.
  timeoutSeconds: 60,
  tableAccess: {
    table: ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
    indexes: ['gsi2'],
  },
});
