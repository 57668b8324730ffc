import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { routes } from '#routes';
import { workspaceHandlers } from './handlers.ts';

export const handler = createFunction({ routes, name: 'workspaces', handlers: workspaceHandlers, deps: runtimeDeps });
