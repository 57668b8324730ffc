import { defineRouteFunction } from '#core/adapters/function-definition';
import { mcpHandlers } from './handlers.ts';
import { mcpRoutes } from './routes.ts';

/** The mcp function: read by its index.ts, the local runner and the CDK stack. */
export const mcpFunction = defineRouteFunction({
  name: 'mcp',
  ports: [],
  routes: mcpRoutes,
  handlers: mcpHandlers,
});
