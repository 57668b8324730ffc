import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { apiKeyHandlers } from './handlers.ts';
import { apiKeyRoutes } from './routes.ts';

/** The api-keys function: read by its index.ts, the local runner and the CDK stack. */
export const apiKeysFunction = defineRouteFunction({
  name: 'api-keys',
  ports: [],
  secrets: ['cursorSigningKey'],
  routes: apiKeyRoutes,
  handlers: apiKeyHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
