import { runtimeDeps } from '#core/adapters/runtime';
import { createFunction } from '#core/http/pipeline';
import { oauthHandlers } from './handlers.ts';
import { oauthRoutes } from './routes.ts';

export const handler = createFunction({ routes: oauthRoutes, handlers: oauthHandlers, deps: runtimeDeps });
