import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { webhookDeliveryHandlers } from './handlers.ts';
import { webhookDeliveryRoutes } from './routes.ts';

/** The webhook-deliveries function: read by its index.ts, the local runner and the CDK stack. */
export const webhookDeliveriesFunction = defineRouteFunction({
  name: 'webhook-deliveries',
  // A manual retry queues the delivery; a test send signs with the endpoint's secret.
  ports: ['deliveryQueue', 'webhookSecrets'],
  secrets: ['cursorSigningKey'],
  routes: webhookDeliveryRoutes,
  handlers: webhookDeliveryHandlers,
  idempotency: runIdempotently,
  // A test send waits up to 20 s for the receiver, within API Gateway's 29 s.
  timeoutSeconds: 29,
  tableAccess: {
    table: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    indexes: ['gsi1'],
  },
});
