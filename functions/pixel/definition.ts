import { defineRouteFunction } from '#core/adapters/function-definition';
import { pixelHandlers } from './handlers.ts';
import { pixelRoutes } from './routes.ts';

/** The pixel function: read by its index.ts, the local runner and the CDK stack. */
export const pixelFunction = defineRouteFunction({
  name: 'pixel',
  ports: [],
  secrets: ['pixelHashKey'],
  routes: pixelRoutes,
  handlers: pixelHandlers,
  tableAccess: {
    table: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
