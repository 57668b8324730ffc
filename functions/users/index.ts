import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { userHandlers } from './handlers.ts';
import { userRoutes } from './routes.ts';

export const handler = createFunction({ routes: userRoutes, handlers: userHandlers, deps: runtimeDeps });
