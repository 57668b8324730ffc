import type { OwnedDeps } from '#core/adapters/create-deps';
import type { BootstrapResult } from '#core/operations/bootstrap';
import { newId } from '#core/platform/ids';
import { collections, counterName } from '#core/store/list-counts';
import { createWorkspace } from '#core/workspaces/workspaces';
import { type Counters, type SeriesFigures, tally } from './counters.ts';
import { putAll } from './seed.ts';

export interface ListFigures {
  /** Page one of a list (per_page=25) holding this many items. */
  small: SeriesFigures & { items: number };
  large: SeriesFigures & { items: number };
  /** large p50 / small p50. */
  ratio: number;
}

/** One request for page one of a list, which must answer 200 with 25 items and `meta.total` = `expected`. */
export function pageOneOf(url: string, headers: Record<string, string>, expected: number, what: string) {
  return async () => {
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { data?: unknown[]; meta?: { total?: number } };
    if (res.status !== 200 || body.data?.length !== 25 || body.meta?.total !== expected) {
      throw new Error(
        `page one of ${expected.toLocaleString('en-US')} ${what} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`,
      );
    }
  };
}

/**
 * Page one of a list at two sizes: sequential requests, alternating between the two, so a
 * machine growing busier favours neither.
 */
export async function alternatePageOne(
  counters: Counters,
  requests: number,
  sizes: [number, number],
  [smallPage, largePage]: [() => Promise<void>, () => Promise<void>],
): Promise<ListFigures> {
  const [small, large] = [tally(counters), tally(counters)];
  for (let i = 0; i < 5; i++) await Promise.all([smallPage(), largePage()]); // warm both paths
  for (let i = 0; i < requests; i++) {
    await small.time(smallPage);
    await large.time(largePage);
  }
  const [s, l] = [small.figures(), large.figures()];
  return { small: { ...s, items: sizes[0] }, large: { ...l, items: sizes[1] }, ratio: l.p50Ms / s.p50Ms };
}

/**
 * Two workspaces of the bootstrap user, with `sizes` keys each, written straight into the
 * table (records as ElectroDB builds them) with their counts: 10,000 keys made through
 * the API would take bcrypt minutes.
 */
async function seed(deps: OwnedDeps, bootstrap: BootstrapResult, sizes: number[]): Promise<string[]> {
  const { db, client, tableName: table } = deps;
  const workspaceIds: string[] = [];
  for (const [n, size] of sizes.entries()) {
    const { id: workspaceId } = await createWorkspace(deps, bootstrap.userId, { name: `bench list ${n}`, tier: 'enterprise' });
    const start = Date.now() - size;
    const items = Array.from({ length: size }, (_, i) => {
      const createdAt = new Date(start + i);
      const prefix = `sk_live_${String(i).padStart(8, '0')}`;
      return db.entities.apiKey
        .put({
          id: newId('apiKey', createdAt),
          workspaceId,
          userId: bootstrap.userId,
          name: `key ${i}`,
          prefix,
          keyHash: 'not-a-key',
          scopes: ['*:read'],
          rateLimitTier: 'free',
          environment: 'live',
          createdAt: createdAt.toISOString(),
        })
        .params<{ Item: Record<string, unknown> }>().Item;
    });
    await putAll(client, table, items);
    await db.entities.counter
      .update({ name: counterName(collections.apiKeysOfWorkspace(workspaceId)) })
      .add({ value: size })
      .go();
    workspaceIds.push(workspaceId);
  }
  return workspaceIds;
}

/** Page one of `GET /api-keys?per_page=25` at two sizes, over HTTP through the local runner. */
export async function measureListPageOne(
  deps: OwnedDeps,
  baseUrl: string,
  bootstrap: BootstrapResult,
  counters: Counters,
  options: { sizes: [number, number]; requests: number },
): Promise<ListFigures> {
  const [smallId, largeId] = await seed(deps, bootstrap, options.sizes);
  const pageOne = (workspaceId: string, expected: number) =>
    pageOneOf(
      `${baseUrl}/api-keys?per_page=25`,
      { Authorization: `Bearer ${bootstrap.apiKey}`, 'X-Workspace-ID': workspaceId },
      expected,
      'keys',
    );
  return alternatePageOne(counters, options.requests, options.sizes, [
    pageOne(smallId!, options.sizes[0]),
    pageOne(largeId!, options.sizes[1]),
  ]);
}
