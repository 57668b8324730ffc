import { withGatewayKeys } from '#core/adapters/gateway-runtime';
import { runtimeDeps } from '#core/adapters/runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { workspaceHandlers } from './handlers.ts';
import { workspaceRoutes } from './routes.ts';

export const handler = createFunction({
  routes: workspaceRoutes,
  handlers: workspaceHandlers,
  deps: withGatewayKeys(runtimeDeps),
  idempotency: runIdempotently,
});
