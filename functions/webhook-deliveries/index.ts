import { createFunction } from '#core/http/pipeline';
import { runIdempotently } from '#core/idempotency/idempotent-requests';
import { queueRuntimeDeps } from '#core/webhooks/aws/queue-runtime';
import { withWebhookSecrets } from '#core/webhooks/secrets-runtime';
import { webhookDeliveryHandlers } from './handlers.ts';
import { webhookDeliveryRoutes } from './routes.ts';

export const handler = createFunction({ routes: webhookDeliveryRoutes, handlers: webhookDeliveryHandlers, deps: withWebhookSecrets(queueRuntimeDeps), idempotency: runIdempotently });
