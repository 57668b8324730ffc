import { createFunction } from '#core/http/pipeline';
import { runtimeDeps } from '#core/runtime';
import { routes } from '#routes';
import { oauthHandlers } from './handlers.ts';

export const handler = createFunction({ routes, name: 'oauth', handlers: oauthHandlers, deps: runtimeDeps });
