import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { routes } from '#routes';
import { apiKeyHandlers } from './handlers.ts';

export const handler = createFunction({ routes, name: 'api-keys', handlers: apiKeyHandlers, deps: runtimeDeps });
