import { runtimeDeps } from '#core/adapters/runtime';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { createFunction } from '#core/http/pipeline';
import { apiKeyHandlers } from './handlers.ts';
import { apiKeyRoutes } from './routes.ts';

export const handler = createFunction({ routes: apiKeyRoutes, handlers: apiKeyHandlers, deps: runtimeDeps, idempotency: runIdempotently });
