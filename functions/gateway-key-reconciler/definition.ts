import { defineFunction } from '#core/adapters/function-definition';

/** The gateway-key-reconciler function: read by its index.ts, the local runner and the CDK stack. */
export const gatewayKeyReconcilerFunction = defineFunction({
  name: 'gateway-key-reconciler',
  ports: ['gatewayKeys'],
  timeoutSeconds: 300,
  tableAccess: {
    table: ['BatchGetItem', 'GetItem', 'UpdateItem'],
    indexes: ['gsi2'],
  },
});
