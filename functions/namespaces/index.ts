import { runtimeDeps } from '#core/adapters/runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { namespaceHandlers } from './handlers.ts';
import { namespaceRoutes } from './routes.ts';

export const handler = createFunction({
  routes: namespaceRoutes,
  handlers: namespaceHandlers,
  deps: runtimeDeps,
  idempotency: runIdempotently,
});
