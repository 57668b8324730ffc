import { withGatewayKeys } from '#core/adapters/gateway-runtime';
import { runtimeDeps } from '#core/adapters/runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { adminHandlers } from './handlers.ts';
import { adminRoutes } from './routes.ts';

export const handler = createFunction({
  routes: adminRoutes,
  handlers: adminHandlers,
  deps: withGatewayKeys(runtimeDeps),
  idempotency: runIdempotently,
});
