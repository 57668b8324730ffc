import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { apiKeyHandlers } from './handlers.ts';
import { apiKeyRoutes } from './routes.ts';

export const handler = createFunction({ routes: apiKeyRoutes, handlers: apiKeyHandlers, deps: runtimeDeps });
