import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { routes } from '#routes';
import { sessionHandlers } from './handlers.ts';

export const handler = createFunction({ routes, name: 'sessions', handlers: sessionHandlers, deps: runtimeDeps });
