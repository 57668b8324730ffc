import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { namespaceHandlers } from './handlers.ts';
import { namespaceRoutes } from './routes.ts';

/** The namespaces function: read by its index.ts, the local runner and the CDK stack. */
export const namespacesFunction = defineRouteFunction({
  name: 'namespaces',
  ports: [],
  secrets: ['cursorSigningKey'],
  routes: namespaceRoutes,
  handlers: namespaceHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    indexes: ['gsi1'],
  },
});
