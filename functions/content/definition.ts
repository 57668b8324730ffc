import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { contentHandlers } from './handlers.ts';
import { contentRoutes } from './routes.ts';

/** The content function (posts, categories and their batch): read by its index.ts, the local runner and the CDK stack. */
export const contentFunction = defineRouteFunction({
  name: 'content',
  ports: [],
  secrets: ['cursorSigningKey'],
  routes: contentRoutes,
  handlers: contentHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
