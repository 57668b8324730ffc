import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { entitlementHandlers } from './handlers.ts';
import { entitlementRoutes } from './routes.ts';

/** The entitlements function: read by its index.ts, the local runner and the CDK stack. */
export const entitlementsFunction = defineRouteFunction({
  name: 'entitlements',
  ports: [],
  routes: entitlementRoutes,
  handlers: entitlementHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
