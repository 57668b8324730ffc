import { defineFunction } from '#core/adapters/function-definition';

/** The authorizer function: read by its index.ts, the local runner and the CDK stack. */
export const authorizerFunction = defineFunction({
  name: 'authorizer',
  ports: [],
  // bcrypt is CPU-bound: a full vCPU keeps a key's first verification in a process short.
  memorySize: 1769,
  tableAccess: {
    table: ['GetItem', 'PutItem', 'UpdateItem'],
    indexes: ['gsi1'],
  },
});
