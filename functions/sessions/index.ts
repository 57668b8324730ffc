import { withGatewayKeys } from '#core/adapters/gateway-runtime';
import { mailingRuntimeDeps } from '#core/adapters/mailing-runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { sessionHandlers } from './handlers.ts';
import { sessionRoutes } from './routes.ts';

export const handler = createFunction({
  routes: sessionRoutes,
  handlers: sessionHandlers,
  deps: withGatewayKeys(mailingRuntimeDeps),
  idempotency: runIdempotently,
});
