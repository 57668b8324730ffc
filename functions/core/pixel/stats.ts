import type * as z from 'zod/mini';
import { ValidationFailed } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { type Breakdown, breakdowns, type PixelDayItem } from '#core/store/pixel-day-items';
import { maxStatsDays, type pixelStats } from './pixel-schemas.ts';
import { type PixelOwner, rollupsOf } from './rollups.ts';
import { dayOf } from './visitors.ts';

const dayMs = 86_400_000;
const topCount = 10;

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / dayMs) + 1;

/** The days asked: `to` today unless given, `from` six days before `to` unless given; at most maxStatsDays. */
function rangeOf(today: string, asked: { from?: string; to?: string }) {
  const to = asked.to ?? today;
  const from = asked.from ?? dayOf(new Date(Date.parse(to) - 6 * dayMs));
  if (from > to) throw new ValidationFailed({ from: ['must not be after to'] });
  if (daysBetween(from, to) > maxStatsDays) throw new ValidationFailed({ from: [`must be at most ${maxStatsDays} days before to`] });
  return { from, to };
}

/** The counts of a breakdown over the days, largest first, ten at most. */
function top(items: readonly PixelDayItem[], breakdown: Breakdown) {
  const { prefix } = breakdowns[breakdown];
  const sums = new Map<string, number>();
  for (const item of items) {
    for (const [attribute, value] of Object.entries(item)) {
      if (attribute.startsWith(prefix) && typeof value === 'number') {
        const key = attribute.slice(prefix.length);
        sums.set(key, (sums.get(key) ?? 0) + value);
      }
    }
  }
  return [...sums].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, topCount);
}

/**
 * The stats of a workspace's sites in one environment over a range of days, from the
 * daily rollups alone: one Query, one item per day with traffic, whatever the traffic.
 */
export async function pixelStatsOf(
  deps: Deps,
  owner: PixelOwner,
  asked: { from?: string; to?: string },
): Promise<z.output<typeof pixelStats>> {
  const { from, to } = rangeOf(dayOf(deps.clock.now()), asked);
  const items = await rollupsOf(deps.db, owner, from, to);
  const byDay = new Map(items.map((item) => [item.sk.slice('DAY#'.length), item]));
  const days = Array.from({ length: daysBetween(from, to) }, (_, i) => {
    const date = dayOf(new Date(Date.parse(from) + i * dayMs));
    const item = byDay.get(date);
    return { date, pageviews: item?.pageviews ?? 0, events: item?.events ?? 0, daily_unique_sessions: item?.sessions ?? 0 };
  });
  const sum = (pick: (day: (typeof days)[number]) => number) => days.reduce((total, day) => total + pick(day), 0);
  return {
    from,
    to,
    totals: {
      pageviews: sum((d) => d.pageviews),
      events: sum((d) => d.events),
      sum_of_daily_unique_sessions: sum((d) => d.daily_unique_sessions),
    },
    days,
    top_pages: top(items, 'pages').map(([path, pageviews]) => ({ path, pageviews })),
    top_referrers: top(items, 'referrers').map(([referrer, pageviews]) => ({ referrer, pageviews })),
    top_events: top(items, 'names').map(([name, count]) => ({ name, count })),
  };
}
