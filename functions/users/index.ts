import { mailingRuntimeDeps } from '#core/adapters/mailing-runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { userHandlers } from './handlers.ts';
import { userRoutes } from './routes.ts';

export const handler = createFunction({
  routes: userRoutes,
  handlers: userHandlers,
  deps: mailingRuntimeDeps,
  idempotency: runIdempotently,
});
