import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { entitlementHandlers } from './handlers.ts';
import { entitlementRoutes } from './routes.ts';

export const handler = createFunction({ routes: entitlementRoutes, handlers: entitlementHandlers, deps: runtimeDeps });
