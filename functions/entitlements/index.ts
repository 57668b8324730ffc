import { runtimeDeps } from '#core/adapters/runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { entitlementHandlers } from './handlers.ts';
import { entitlementRoutes } from './routes.ts';

export const handler = createFunction({
  routes: entitlementRoutes,
  handlers: entitlementHandlers,
  deps: runtimeDeps,
  idempotency: runIdempotently,
});
