import { defineFunction } from '#core/adapters/function-definition';

/** The webhook-worker function: read by its index.ts, the local runner and the CDK stack. */
export const webhookWorkerFunction = defineFunction({
  name: 'webhook-worker',
  ports: ['deliveryQueue', 'retryScheduler', 'webhookSecrets'],
  // Its timeout follows the delivery timeout, which is the deployment's (lib/constructs/webhooks.ts, workerTimeoutOf).
  tableAccess: {
    table: ['GetItem', 'PutItem', 'UpdateItem'],
  },
});
