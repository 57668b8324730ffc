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

/**
 * One request for page one of a list (per_page=25), which must answer 200 with
 * `meta.total` = `expected` and as many items as that allows (25, or all when fewer).
 */
export function pageOneOf(url: string, headers: Record<string, string>, expected: number, what: string) {
  return async () => {
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { data?: unknown[]; meta?: { total?: number } };
    if (res.status !== 200 || body.data?.length !== Math.min(25, expected) || body.meta?.total !== expected) {
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

/** What a bench list is seeded with in a workspace: its items as table records, and the collection they count in. */
export interface ListSeed {
  name: string;
  records(workspaceId: string, size: number): Record<string, unknown>[];
  collection(workspaceId: string): string;
}

/**
 * Fresh enterprise workspaces of the bootstrap user, one per size, each holding `size`
 * items written straight into the table (records as ElectroDB builds them) with their
 * list count: 10,000 made through the API would take minutes (keys: bcrypt minutes).
 */
export async function seedWorkspaces(deps: OwnedDeps, bootstrap: BootstrapResult, sizes: number[], seed: ListSeed): Promise<string[]> {
  const workspaceIds: string[] = [];
  for (const [n, size] of sizes.entries()) {
    const { id: workspaceId } = await createWorkspace(deps, bootstrap.userId, { name: `bench ${seed.name} ${n}`, tier: 'enterprise' });
    await putAll(deps.client, deps.tableName, seed.records(workspaceId, size));
    await deps.db.entities.counter
      .update({ name: counterName(seed.collection(workspaceId)) })
      .add({ value: size })
      .go();
    workspaceIds.push(workspaceId);
  }
  return workspaceIds;
}

/** API keys that are never used: the list reads them, nothing verifies them. */
const apiKeySeed = (deps: OwnedDeps, bootstrap: BootstrapResult): ListSeed => ({
  name: 'list',
  collection: collections.apiKeysOfWorkspace,
  records(workspaceId, size) {
    const start = Date.now() - size;
    return Array.from({ length: size }, (_, i) => {
      const createdAt = new Date(start + i);
      const prefix = `sk_live_${String(i).padStart(8, '0')}`;
      return deps.db.entities.apiKey
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
  },
});

/** Page one of `GET /api-keys?per_page=25` at two sizes, over HTTP through the local runner. */
export async function measureListPageOne(
  deps: OwnedDeps,
  baseUrl: string,
  bootstrap: BootstrapResult,
  counters: Counters,
  options: { sizes: [number, number]; requests: number },
): Promise<ListFigures> {
  const [smallId, largeId] = await seedWorkspaces(deps, bootstrap, options.sizes, apiKeySeed(deps, bootstrap));
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
