import { withGatewayKeys } from '#core/gateway-runtime';
import { createFunction } from '#core/http/pipeline';
import { runIdempotently } from '#core/idempotency/idempotent-requests';
import { runtimeDeps } from '#core/runtime';
import { adminHandlers } from './handlers.ts';
import { adminRoutes } from './routes.ts';

export const handler = createFunction({ routes: adminRoutes, handlers: adminHandlers, deps: withGatewayKeys(runtimeDeps), idempotency: runIdempotently });
