import { handlersFor } from '#core/http/handlers';
import { pixelStatsOf } from '#core/pixel/stats';
import { pixelConfigFor, track } from '#core/pixel/tracking';
import type { pixelRoutes } from './routes.ts';

export const pixelHandlers = handlersFor<(typeof pixelRoutes)[number]>()({
  getPixelConfig: async ({ headers }, deps) => ({
    status: 200,
    body: { data: await pixelConfigFor(deps, { origin: headers.origin, referer: headers.referer }) },
  }),
  trackPixelEvent: async ({ body, headers, sourceIp }, deps) => ({
    status: 200,
    body: { tracked: await track(deps, { body, origin: headers.origin, userAgentHeader: headers['user-agent'], address: sourceIp }) },
  }),
  getPixelStats: async ({ principal, workspaceId, query }, deps) => ({
    status: 200,
    body: { data: await pixelStatsOf(deps, { workspaceId, environment: principal.environment }, query) },
  }),
});
