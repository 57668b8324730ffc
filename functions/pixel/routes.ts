import { routeTable } from '#core/http/route-table';
import { pixelConfig, pixelStats, statsQuery, trackAnswer, trackBody } from '#core/pixel/pixel-schemas';
import { dataOf } from '#core/platform/common-schemas';

/**
 * The routes of the pixel function: what a site's tracker calls from every visitor's
 * browser (public, any origin, its own stage throttling in AWS), and the stats a workspace
 * reads back with a credential.
 */
export const pixelRoutes = routeTable({ tag: 'Pixel' }, [
  {
    operationId: 'getPixelConfig',
    method: 'GET',
    path: '/pixel/config',
    auth: 'none',
    cors: 'any-origin',
    summary:
      'The tracking configuration of the site that asks (its Origin, else its Referer); a site no workspace tracks gets a disabled one',
    responses: { 200: { description: 'The configuration; never an error for an unknown site.', schema: dataOf(pixelConfig) } },
  },
  {
    operationId: 'trackPixelEvent',
    description:
      'Sent by the tracker script of a site a workspace tracks, or by `navigator.sendBeacon`: any origin may call it, with no credential; the site is known by the host of `url`.',
    method: 'POST',
    path: '/pixel/track',
    auth: 'none',
    cors: 'any-origin',
    bodyFormat: 'beacon',
    summary:
      "Count a pageview or an event of a site (its url's host; JSON as application/json or text/plain); 300 requests a minute per client address",
    body: trackBody,
    responses: {
      200: { description: 'Whether it was counted: false, never an error, for a site no workspace tracks.', schema: trackAnswer },
    },
  },
  {
    operationId: 'getPixelStats',
    method: 'GET',
    path: '/pixel/stats',
    auth: 'credential',
    scope: 'analytics:read',
    summary:
      "Pageviews, events and daily unique sessions by day, top pages, referrers and events of the workspace's sites, in your credential's environment",
    query: statsQuery,
    responses: { 200: { description: 'The stats of the days asked (at most 93).', schema: dataOf(pixelStats) } },
  },
]);
