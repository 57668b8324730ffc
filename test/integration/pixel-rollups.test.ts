import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { forgetPixelDataOf } from '#core/pixel/pixel-removal';
import { breakdownCaps, countInRollup, otherKey, type RollupCount } from '#core/pixel/rollups';
import { pixelStatsOf } from '#core/pixel/stats';
import { environments } from '#core/platform/environments';
import { pixelDayKey, pixelDayPartition } from '#core/store/pixel-day-items';
import { queryAll } from '#core/store/query-pages';
import { type TestDeps, testDeps } from '../support/deps.ts';

/**
 * The daily rollups against DynamoDB Local: one UpdateItem per event moves the day's
 * totals and its breakdowns, and a breakdown past its cap counts further keys as `(other)`,
 * so that a flood of made-up paths cannot grow the item (nor the cost of each write).
 */

let deps: TestDeps;
beforeAll(async () => {
  deps = await testDeps();
});
afterAll(() => deps.close());

const day = new Date().toISOString().slice(0, 10);
let serial = 0;
const ownerOf = () => ({ workspaceId: `wks_rollup_${++serial}`, environment: 'live' as const });
const pageview = (owner: RollupCount['owner'], path: string, referrer?: string): RollupCount => ({
  owner,
  day,
  pageview: true,
  keys: { pages: path, ...(referrer ? { referrers: referrer } : {}) },
  newSession: false,
  ttl: Math.floor(Date.now() / 1000) + 86_400,
});

it('past its cap a breakdown counts new keys as (other), and keeps counting the keys it has', async () => {
  const owner = ownerOf();
  const cap = breakdownCaps.pages;
  for (let i = 0; i < cap; i++) await countInRollup(deps.db, pageview(owner, `/page-${i}`));
  for (const path of ['/spam-1', '/spam-2', '/page-0', '/spam-3']) await countInRollup(deps.db, pageview(owner, path, 'news.example.org'));

  const stats = await pixelStatsOf(deps, owner, { from: day, to: day });
  expect(stats.totals.pageviews).toBe(cap + 4);
  expect(stats.top_pages.slice(0, 2)).toEqual([
    { path: otherKey, pageviews: 3 },
    { path: '/page-0', pageviews: 2 },
  ]);
  // The referrers' breakdown had room: its key counted as itself all along.
  expect(stats.top_referrers).toEqual([{ referrer: 'news.example.org', pageviews: 4 }]);
});

it('cuts long keys to 100 characters, so that one key cannot fill the item', async () => {
  const owner = ownerOf();
  await countInRollup(deps.db, pageview(owner, `/${'a'.repeat(500)}`));
  const stats = await pixelStatsOf(deps, owner, { from: day, to: day });
  expect(stats.top_pages).toEqual([{ path: `/${'a'.repeat(99)}`, pageviews: 1 }]);
});

it("a deleted workspace's rollups go with it, in both environments, past a Query page", async () => {
  const workspaceId = `wks_rollup_${++serial}`;
  const { client, name } = deps.db.table;
  const partitions = environments.map((environment) => pixelDayPartition(workspaceId, environment));
  for (const environment of environments) {
    await countInRollup(deps.db, pageview({ workspaceId, environment }, '/'));
    // 40 more days of 30 KB each: 1.2 MB, more than one Query page.
    for (let d = 1; d <= 40; d++) {
      const date = new Date(Date.UTC(2026, 0, d)).toISOString().slice(0, 10);
      const Item = { ...pixelDayKey(workspaceId, environment, date), filler: 'x'.repeat(30_000) };
      await client.send(new PutCommand({ TableName: name, Item }));
    }
  }
  const itemsOf = (pk: string) =>
    queryAll(client, {
      TableName: name,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    });
  for (const pk of partitions) expect(await itemsOf(pk)).toHaveLength(41);

  await forgetPixelDataOf(deps, workspaceId);
  for (const pk of partitions) expect(await itemsOf(pk)).toEqual([]);
});
