import { createFunction } from '#core/http/pipeline';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { runtimeDeps } from '#core/adapters/runtime';
import { namespaceHandlers } from './handlers.ts';
import { namespaceRoutes } from './routes.ts';

export const handler = createFunction({ routes: namespaceRoutes, handlers: namespaceHandlers, deps: runtimeDeps, idempotency: runIdempotently });
