import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { sessionHandlers } from './handlers.ts';
import { sessionRoutes } from './routes.ts';

export const handler = createFunction({ routes: sessionRoutes, handlers: sessionHandlers, deps: runtimeDeps });
