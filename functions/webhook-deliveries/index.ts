import { queueRuntimeDeps } from '#core/adapters/webhooks/queue-runtime';
import { withWebhookSecrets } from '#core/adapters/webhooks/secrets-runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { webhookDeliveryHandlers } from './handlers.ts';
import { webhookDeliveryRoutes } from './routes.ts';

export const handler = createFunction({
  routes: webhookDeliveryRoutes,
  handlers: webhookDeliveryHandlers,
  deps: withWebhookSecrets(queueRuntimeDeps),
  idempotency: runIdempotently,
});
