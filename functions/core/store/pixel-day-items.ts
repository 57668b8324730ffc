import type { Environment } from '#core/platform/environments';

/**
 * The daily rollups of pixel events, one item per workspace, environment and UTC day moved by
 * one UpdateItem per event, so that `/pixel/stats` reads one item per day whatever the traffic.
 * Written with the table's own client, as ElectroDB cannot name per-page attributes.
 *
 * | access pattern                 | index | pk                      | sk           |
 * |--------------------------------|-------|-------------------------|--------------|
 * | the days of a range            | table | PIXELDAY#<wid>#<env>    | DAY#<day>    |
 */
export const pixelDayPartition = (workspaceId: string, environment: Environment) => `PIXELDAY#${workspaceId}#${environment}`;

export const pixelDayKey = (workspaceId: string, environment: Environment, day: string) => ({
  pk: pixelDayPartition(workspaceId, environment),
  sk: `DAY#${day}`,
});

/** A breakdown of the rollup: the set of its keys, whose size bounds the item (pixel/rollups.ts), and its counters' prefix. */
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
  /** Daily unique sessions. */
  sessions?: number;
  [attribute: string]: unknown;
}
