import { defineFunction } from '#core/adapters/function-definition';

/** The fallback function: read by its index.ts, the local runner and the CDK stack. */
export const fallbackFunction = defineFunction({
  name: 'fallback',
  ports: [],
  // It answers from the route table alone.
  table: false,
});
