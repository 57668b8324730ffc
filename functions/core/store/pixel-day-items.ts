import type { Environment } from '#core/platform/environments';

/**
 * The daily rollups of pixel events: one item per workspace, environment and UTC day,
 * moved by one UpdateItem per accepted event, so that `/pixel/stats` reads one item per day
 * asked (one Query over the range) whatever the traffic. Written with the table's own
 * client: ElectroDB cannot name per-page attributes.
 *
 * | access pattern                 | index | pk                      | sk           |
 * |--------------------------------|-------|-------------------------|--------------|
 * | the days of a range            | table | PIXELDAY#<wid>#<env>    | DAY#<day>    |
 *
 * Attributes: `pageviews`, `events`, `sessions` (daily unique sessions); per page `p:<path>`,
 * per referrer host `r:<host>`, per event name `e:<name>` a count, and the sets `pages`,
 * `referrers`, `names` of those keys, whose sizes bound the item (core/pixel/rollups.ts).
 */
export const pixelDayPartition = (workspaceId: string, environment: Environment) => `PIXELDAY#${workspaceId}#${environment}`;

export const pixelDayKey = (workspaceId: string, environment: Environment, day: string) => ({
  pk: pixelDayPartition(workspaceId, environment),
  sk: `DAY#${day}`,
});

/** A breakdown of the rollup: its key set's attribute and its counters' prefix. */
export const breakdowns = {
  pages: { set: 'pages', prefix: 'p:' },
  referrers: { set: 'referrers', prefix: 'r:' },
  names: { set: 'names', prefix: 'e:' },
} as const;

export type Breakdown = keyof typeof breakdowns;

export interface PixelDayItem {
  sk: string;
  pageviews?: number;
  events?: number;
  sessions?: number;
  [attribute: string]: unknown;
}
