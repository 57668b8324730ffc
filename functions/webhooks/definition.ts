import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { webhookHandlers } from './handlers.ts';
import { webhookRoutes } from './routes.ts';

/** The webhooks function: read by its index.ts, the local runner and the CDK stack. */
export const webhooksFunction = defineRouteFunction({
  name: 'webhooks',
  // Creating an endpoint and rotating its secret seal the secret.
  ports: ['webhookSecrets'],
  secrets: ['cursorSigningKey'],
  routes: webhookRoutes,
  handlers: webhookHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
});
