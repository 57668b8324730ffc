import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { routes } from '#routes';
import { userHandlers } from './handlers.ts';

export const handler = createFunction({ routes, name: 'users', handlers: userHandlers, deps: runtimeDeps });
