import { defineRouteFunction } from '#core/adapters/function-definition';
import { oauthHandlers } from './handlers.ts';
import { oauthRoutes } from './routes.ts';

/** The oauth function: read by its index.ts, the local runner and the CDK stack. */
export const oauthFunction = defineRouteFunction({
  name: 'oauth',
  ports: [],
  routes: oauthRoutes,
  handlers: oauthHandlers,
  tableAccess: {
    table: ['BatchWriteItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    indexes: ['gsi1'],
  },
});
