import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { routes } from '#routes';
import { adminHandlers } from './handlers.ts';

export const handler = createFunction({ routes, name: 'admin', handlers: adminHandlers, deps: runtimeDeps });
