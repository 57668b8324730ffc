import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { adminHandlers } from './handlers.ts';
import { adminRoutes } from './routes.ts';

/** The admin function: read by its index.ts, the local runner and the CDK stack. */
export const adminFunction = defineRouteFunction({
  name: 'admin',
  // A new tier moves the workspace's API Gateway key to its plan.
  ports: ['gatewayKeys'],
  routes: adminRoutes,
  handlers: adminHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
