import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { mcpHandlers } from './handlers.ts';
import { mcpRoutes } from './routes.ts';
import { toolFunctions } from './tool-catalogue.ts';

/** The mcp function: read by its index.ts, the local runner and the CDK stack. */
export const mcpFunction = defineRouteFunction({
  name: 'mcp',
  ports: ['routeInvoker'],
  invokes: toolFunctions(),
  idempotency: runIdempotently,
  routes: mcpRoutes,
  handlers: mcpHandlers,
  tableAccess: {
    table: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
