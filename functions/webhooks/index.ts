import { runtimeDeps } from '#core/adapters/runtime';
import { withWebhookSecrets } from '#core/adapters/webhooks/secrets-runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { webhookHandlers } from './handlers.ts';
import { webhookRoutes } from './routes.ts';

export const handler = createFunction({
  routes: webhookRoutes,
  handlers: webhookHandlers,
  deps: withWebhookSecrets(runtimeDeps),
  idempotency: runIdempotently,
});
