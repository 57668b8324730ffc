import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { toolCatalogue } from '#core/mcp/tool-catalogue';
import { operationRoutes } from '../operation-routes.ts';
import { mcpHandlers } from './handlers.ts';
import { mcpRoutes } from './routes.ts';

const catalogue = toolCatalogue(operationRoutes);

/** The mcp function: read by its index.ts, the local runner and the CDK stack. */
export const mcpFunction = defineRouteFunction({
  name: 'mcp',
  ports: ['routeInvoker'],
  invokes: catalogue.functions(),
  idempotency: runIdempotently,
  routes: mcpRoutes,
  handlers: mcpHandlers(catalogue),
  tableAccess: {
    table: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
