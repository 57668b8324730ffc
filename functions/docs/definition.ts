import { defineFunction } from '#core/adapters/function-definition';

/**
 * The docs function: the documentation pages, their bundles, openapi.json/.yaml and
 * llms.txt (handlers.ts). It serves no route of the registry: its paths (routes.ts) are not
 * operations of the API. It reads sessions and makes try-it keys in the table.
 */
export const docsFunction = defineFunction({
  name: 'docs',
  ports: [],
  tableAccess: {
    table: ['BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
