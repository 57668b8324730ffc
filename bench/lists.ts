import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { BootstrapResult } from '#core/domain/bootstrap';
import type { OwnedDeps } from '#core/deps';
import { createWorkspace } from '#core/domain/workspaces';
import { newId } from '#core/ids';
import { collections, counterName } from '#core/store/list-counts';
import { tally, type Counters, type SeriesFigures } from './counters.ts';

export interface ListFigures {
  /** Page one of `GET /api-keys?per_page=25` in a workspace holding this many keys. */
  small: SeriesFigures & { items: number };
  large: SeriesFigures & { items: number };
  /** large p50 / small p50. */
  ratio: number;
}

/**
 * Two workspaces of the bootstrap user, with `sizes` keys each, written straight into the
 * table (BatchWriteItem, 25 a call, records as ElectroDB builds them) with their counts:
 * 10,000 keys made through the API would take bcrypt minutes.
 */
async function seed(deps: OwnedDeps, bootstrap: BootstrapResult, sizes: number[]): Promise<string[]> {
  const { db, client, tableName: table } = deps;
  const workspaceIds: string[] = [];
  for (const [n, size] of sizes.entries()) {
    const { id: workspaceId } = await createWorkspace(deps, bootstrap.userId, { name: `bench list ${n}`, tier: 'enterprise' });
    const start = Date.now() - size;
    const puts = Array.from({ length: size }, (_, i) => {
      const createdAt = new Date(start + i);
      const prefix = `sk_live_${String(i).padStart(8, '0')}`;
      const { Item } = db.entities.apiKey
        .put({ id: newId('apiKey', createdAt), workspaceId, userId: bootstrap.userId, name: `key ${i}`, prefix, keyHash: 'not-a-key', scopes: ['*:read'], rateLimitTier: 'free', environment: 'live', createdAt: createdAt.toISOString() })
        .params<{ Item: Record<string, unknown> }>();
      return { PutRequest: { Item } };
    });
    for (let i = 0; i < puts.length; i += 25) {
      let unprocessed: Record<string, unknown[]> | undefined = { [table]: puts.slice(i, i + 25) };
      while (unprocessed && Object.keys(unprocessed).length) {
        ({ UnprocessedItems: unprocessed } = await client.send(new BatchWriteCommand({ RequestItems: unprocessed as never })));
      }
    }
    await db.entities.counter.update({ name: counterName(collections.apiKeysOfWorkspace(workspaceId)) }).add({ value: size }).go();
    workspaceIds.push(workspaceId);
  }
  return workspaceIds;
}

/**
 * Page one of a list at two sizes, over HTTP through the local runner: sequential
 * requests, alternating between the two, so a machine growing busier favours neither.
 */
export async function measureListPageOne(
  deps: OwnedDeps,
  baseUrl: string,
  bootstrap: BootstrapResult,
  counters: Counters,
  options: { sizes: [number, number]; requests: number },
): Promise<ListFigures> {
  const [smallId, largeId] = await seed(deps, bootstrap, options.sizes);
  const pageOne = (workspaceId: string, expected: number) => async () => {
    const res = await fetch(`${baseUrl}/api-keys?per_page=25`, { headers: { Authorization: `Bearer ${bootstrap.apiKey}`, 'X-Workspace-ID': workspaceId } });
    const body = (await res.json()) as { data?: unknown[]; meta?: { total?: number } };
    if (res.status !== 200 || body.data?.length !== 25 || body.meta?.total !== expected) {
      throw new Error(`page one of ${expected} keys answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
  };
  const [small, large] = [tally(counters), tally(counters)];
  const [smallPage, largePage] = [pageOne(smallId!, options.sizes[0]), pageOne(largeId!, options.sizes[1])];
  for (let i = 0; i < 5; i++) await Promise.all([smallPage(), largePage()]); // warm both paths
  for (let i = 0; i < options.requests; i++) {
    await small.time(smallPage);
    await large.time(largePage);
  }
  const [s, l] = [small.figures(), large.figures()];
  return { small: { ...s, items: options.sizes[0] }, large: { ...l, items: options.sizes[1] }, ratio: l.p50Ms / s.p50Ms };
}
