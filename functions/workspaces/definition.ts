import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { workspaceHandlers } from './handlers.ts';
import { workspaceRoutes } from './routes.ts';

/** The workspaces function: read by its index.ts, the local runner and the CDK stack. */
export const workspacesFunction = defineRouteFunction({
  name: 'workspaces',
  // Creating and deleting a workspace makes and removes its API Gateway key.
  ports: ['gatewayKeys'],
  secrets: ['cursorSigningKey'],
  routes: workspaceRoutes,
  handlers: workspaceHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    indexes: ['gsi1'],
  },
});
