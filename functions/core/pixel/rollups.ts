import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { BoundedCache } from '#core/platform/bounded-cache';
import type { Environment } from '#core/platform/environments';
import { isConditionFailure } from '#core/store/conditions';
import type { Database } from '#core/store/database';
import { type Breakdown, breakdowns, type PixelDayItem, pixelDayKey, pixelDayPartition } from '#core/store/pixel-day-items';
import { queryAll } from '#core/store/query-pages';

/** Where events are counted: a workspace's data in one environment. */
export interface PixelOwner {
  workspaceId: string;
  environment: Environment;
}

/**
 * How many keys each breakdown of a day keeps; past them the day's further keys count as
 * `(other)`. They bound the rollup item (about 25 KB at worst, with keys cut to 100
 * characters), and with it what each event's update costs: DynamoDB charges a write by the
 * item's size.
 */
export const breakdownCaps: Record<Breakdown, number> = { pages: 100, referrers: 50, names: 50 };
export const otherKey = '(other)';
const maxKeyLength = 100;

/** One accepted event, as its day's rollup counts it. */
export interface RollupCount {
  owner: PixelOwner;
  day: string;
  pageview: boolean;
  /** The breakdowns' keys: the page's path and the referring host of a pageview, the name of another event. */
  keys: Partial<Record<Breakdown, string>>;
  newSession: boolean;
  /** When the rollup expires (epoch seconds): with the day's events. */
  ttl: number;
}

/** Breakdowns at their cap, with the keys they hold (none known when DynamoDB did not say). */
type FullBreakdowns = Partial<Record<Breakdown, ReadonlySet<string>>>;

/** Breakdowns this process has seen at their cap, by rollup: a new key goes to `(other)` without a try. */
const atCap = new BoundedCache<FullBreakdowns>(1_000);

/**
 * The one UpdateItem that counts an event: ADD on the day's totals and on the breakdowns'
 * counters (top-level attributes, which ADD creates), each breakdown's key added to its set
 * on condition that the set has room for a new key (or holds it already).
 */
function rollupUpdate(table: string, count: RollupCount, full: FullBreakdowns = {}): UpdateCommandInput {
  const names: Record<string, string> = { '#ttl': 'ttl', '#total': count.pageview ? 'pageviews' : 'events' };
  const values: Record<string, unknown> = { ':one': 1, ':ttl': count.ttl };
  const adds = ['#total :one', ...(count.newSession ? ['sessions :one'] : [])];
  const conditions: string[] = [];
  (Object.entries(count.keys) as [Breakdown, string][]).forEach(([breakdown, given], i) => {
    const cut = given.slice(0, maxKeyLength);
    const held = full[breakdown];
    const key = held && !held.has(cut) ? otherKey : cut;
    const { set, prefix } = breakdowns[breakdown];
    Object.assign(names, { [`#s${i}`]: set, [`#c${i}`]: prefix + key });
    Object.assign(values, { [`:k${i}`]: new Set([key]) });
    adds.push(`#c${i} :one`, `#s${i} :k${i}`);
    if (key === otherKey || held) return;
    Object.assign(values, { [`:v${i}`]: key, [`:cap${i}`]: breakdownCaps[breakdown] });
    conditions.push(`(attribute_not_exists(#s${i}) OR contains(#s${i}, :v${i}) OR size(#s${i}) < :cap${i})`);
  });
  return {
    TableName: table,
    Key: pixelDayKey(count.owner.workspaceId, count.owner.environment, count.day),
    UpdateExpression: `SET #ttl = :ttl ADD ${adds.join(', ')}`,
    ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

/** The keys of a set attribute of a returned item, marshalled (`{ SS: [...] }`) or not. */
function keysOf(value: unknown): string[] {
  if (value instanceof Set) return [...value].map(String);
  return (value as { SS?: string[] } | undefined)?.SS ?? [];
}

/** The breakdowns at their cap in the item a failed condition returned; every one tried, holding unknown keys, when it returned none. */
function fullIn(item: Record<string, unknown> | undefined, tried: Breakdown[]): FullBreakdowns {
  const full: FullBreakdowns = {};
  for (const breakdown of tried) {
    const keys = keysOf(item?.[breakdowns[breakdown].set]);
    if (!item || keys.length >= breakdownCaps[breakdown]) full[breakdown] = new Set(keys);
  }
  return full;
}

/**
 * Counts an event in its day's rollup: one write, or two the first time this process finds
 * a breakdown of the day at its cap (the failed condition costs one).
 */
export async function countInRollup(db: Database, count: RollupCount): Promise<void> {
  const { client, name } = db.table;
  const { pk, sk } = pixelDayKey(count.owner.workspaceId, count.owner.environment, count.day);
  const memo = `${pk} ${sk}`;
  const full = atCap.get(memo) ?? {};
  try {
    await client.send(new UpdateCommand(rollupUpdate(name, count, full)));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const tried = (Object.keys(count.keys) as Breakdown[]).filter((breakdown) => !full[breakdown]);
    const now = { ...full, ...fullIn((error as { Item?: Record<string, unknown> }).Item, tried) };
    atCap.set(memo, now);
    await client.send(new UpdateCommand(rollupUpdate(name, count, now)));
  }
}

/** The rollups of a range of days (inclusive), oldest first: one Query, a page per megabyte. */
export function rollupsOf(db: Database, owner: PixelOwner, from: string, to: string): Promise<PixelDayItem[]> {
  return queryAll<PixelDayItem>(db.table.client, {
    TableName: db.table.name,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': pixelDayPartition(owner.workspaceId, owner.environment),
      ':from': pixelDayKey(owner.workspaceId, owner.environment, from).sk,
      ':to': pixelDayKey(owner.workspaceId, owner.environment, to).sk,
    },
  });
}
