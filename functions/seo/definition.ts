import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { seoHandlers } from './handlers.ts';
import { seoRoutes } from './routes.ts';

/** The seo function: read by its index.ts, the local runner and the CDK stack. */
export const seoFunction = defineRouteFunction({
  name: 'seo',
  ports: [],
  secrets: ['cursorSigningKey'],
  routes: seoRoutes,
  handlers: seoHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
