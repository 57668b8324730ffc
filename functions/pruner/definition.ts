import { defineFunction } from '#core/adapters/function-definition';

/** The pruner function: read by its index.ts, the local runner and the CDK stack. */
export const prunerFunction = defineFunction({
  name: 'pruner',
  ports: [],
  // Deletes in pages and stops before its timeout; a backlog is worked off over several runs.
  memorySize: 512,
  timeoutSeconds: 300,
  tableAccess: {
    table: ['DeleteItem', 'PutItem', 'UpdateItem'],
    indexes: ['gsi2'],
  },
});
