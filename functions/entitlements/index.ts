import { createFunction } from '#core/http/pipeline';
import { runIdempotently } from '#core/idempotency/idempotent-requests';
import { runtimeDeps } from '#core/runtime';
import { entitlementHandlers } from './handlers.ts';
import { entitlementRoutes } from './routes.ts';

export const handler = createFunction({ routes: entitlementRoutes, handlers: entitlementHandlers, deps: runtimeDeps, idempotency: runIdempotently });
