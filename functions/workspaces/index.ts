import { withGatewayKeys } from '#core/gateway-runtime';
import { createFunction } from '#core/http/pipeline';
import { runIdempotently } from '#core/idempotency/idempotent-requests';
import { runtimeDeps } from '#core/runtime';
import { workspaceHandlers } from './handlers.ts';
import { workspaceRoutes } from './routes.ts';

export const handler = createFunction({ routes: workspaceRoutes, handlers: workspaceHandlers, deps: withGatewayKeys(runtimeDeps), idempotency: runIdempotently });
