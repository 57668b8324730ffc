import { type ListPage, listPage } from '#core/lists/list-page';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import type { ListSource } from '#core/lists/list-source';

const spec: ListSpec = {
  fields: ['id', 'name', 'tier', 'created_at', 'updated_at'],
  sortable: ['name', 'created_at'],
  searchable: ['name'],
};
const schema = listQuerySchema(spec);
const base = 'https://api.example.com/api/v1/things';

type Thing = { id: string; name: string; tier: string; created_at: string; updated_at: string };

const names = ['delta', 'alpha', 'echo', 'bravo', 'charlie', 'golf', 'foxtrot'];
const things = (n: number): Thing[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `t${i}`,
    name: names[i % names.length]!,
    tier: i % 2 ? 'pro' : 'free',
    created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    updated_at: new Date(Date.UTC(2026, 1, 1 + i)).toISOString(),
  }));

/** A list in memory, read the way the store reads one: in key order, from a position, counted. */
function memorySource(items: Thing[], collection = 'things:1') {
  const reads: { skip: number; take: number }[] = [];
  const source: ListSource<Thing, Thing> = {
    collection,
    count: async () => items.length,
    orderedBy: 'created_at',
    read: async ({ skip, take, descending, after }) => {
      reads.push({ skip, take });
      const ordered = descending ? [...items].reverse() : items;
      const from = (after === undefined ? 0 : Number(after)) + skip;
      const rows = ordered.slice(from, from + take);
      return { rows, next: from + rows.length < ordered.length && rows.length ? String(from + rows.length) : null };
    },
    view: async (rows) => rows,
  };
  return { source, reads };
}

const list = (items: Thing[] | ListSource<Thing, Thing>, query: string) => {
  const url = new URL(`${base}${query ? `?${query}` : ''}`);
  const parsed = schema.parse(Object.fromEntries(url.searchParams));
  return listPage(Array.isArray(items) ? memorySource(items).source : items, parsed, spec, url);
};

const ids = (page: ListPage<Thing>) => page.data.map((t) => t.id!);

describe('a list in its own order', () => {
  it('defaults to page 1 of 25 and reports meta and links, with no window', async () => {
    const page = await list(things(7), '');
    expect(page.data).toHaveLength(7);
    expect(page.meta).toEqual({ current_page: 1, per_page: 25, total: 7, last_page: 1, from: 1, to: 7, window: null });
    expect(page.links).toEqual({ first: `${base}?page=1`, last: `${base}?page=1`, prev: null, next: null });
  });

  it('reads only its page: page one of 10,000 reads what page one of 100 reads', async () => {
    for (const n of [100, 10_000]) {
      const { source, reads } = memorySource(things(n));
      await list(source, 'per_page=25');
      expect(reads).toEqual([{ skip: 0, take: 25 }]);
    }
  });

  it('pages by number with absolute links that keep the other parameters', async () => {
    const page = await list(things(7), 'fields=name&per_page=3&page=2');
    expect(ids(page)).toEqual(['t3', 't4', 't5']);
    expect(page.data[0]).toEqual({ id: 't3', name: 'bravo' });
    expect(page.meta).toMatchObject({ current_page: 2, last_page: 3, from: 4, to: 6, total: 7 });
    expect(page.links.prev).toBe(`${base}?fields=name&per_page=3&page=1`);
    expect(page.links.last).toBe(`${base}?fields=name&per_page=3&page=3`);
    expect(page.links.next).toMatch(new RegExp(`^${base}\\?fields=name&per_page=3&cursor=`));
  });

  it('serves sort=-created_at from the index too, newest first', async () => {
    const page = await list(things(7), 'sort=-created_at&per_page=2');
    expect(ids(page)).toEqual(['t6', 't5']);
    expect(page.meta.window).toBeNull();
  });

  it('answers an empty page past the end with from and to null', async () => {
    const page = await list(things(7), 'page=9');
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ from: null, to: null, last_page: 1 });
    expect(page.links.next).toBeNull();
  });

  it('echoes per_page in links as clamped, never as sent', async () => {
    const page = await list(things(250), 'per_page=100000');
    expect(page.meta.per_page).toBe(100);
    for (const link of Object.values(page.links).filter(Boolean)) expect(new URL(link!).searchParams.get('per_page')).toBe('100');
  });

  it('walks the whole list by cursor with no gaps or repeats, numbering the pages as it goes', async () => {
    const all = things(95);
    const seen: string[] = [];
    let page = await list(all, 'per_page=10&sort=created_at');
    for (;;) {
      seen.push(...ids(page));
      expect(page.meta.current_page).toBe(seen.length === 95 ? 10 : seen.length / 10);
      if (!page.links.next) break;
      page = await list(all, new URL(page.links.next).search.slice(1));
      expect(page.links.prev).toContain(`page=${page.meta.current_page! - 1}`);
    }
    expect(seen).toEqual(all.map((t) => t.id));
    expect(page.meta).toMatchObject({ from: 91, to: 95, total: 95 });
  });

  it('refuses page numbers beyond the first 10,000 items, pointing to the cursor', async () => {
    await expect(list(things(20_000), 'per_page=100&page=100')).resolves.toMatchObject({ meta: { from: 9_901, to: 10_000 } });
    const refused = list(things(20_000), 'per_page=100&page=101');
    await expect(refused).rejects.toMatchObject({ status: 422, extras: { errors: { page: [expect.stringContaining('cursor')] } } });
    const wide = await list(things(20_000), 'per_page=100');
    expect(wide.links.last).toBeNull();
  });

  it('refuses a tampered cursor, one of another list, one of another order, and one given with page', async () => {
    const { source } = memorySource(things(50));
    const next = new URL((await list(source, 'per_page=10')).links.next!);
    const cursor = next.searchParams.get('cursor')!;
    const [payload, signature] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['40', 40])).toString('base64url');
    for (const query of [
      `cursor=${forged}.${signature}`,
      `cursor=${payload}.${signature.slice(0, -2)}AA`,
      'cursor=not-a-cursor',
      `cursor=${cursor}&sort=-created_at`,
    ]) {
      await expect(list(source, query)).rejects.toMatchObject({ status: 422, extras: { errors: { cursor: expect.any(Array) } } });
    }
    await expect(list(memorySource(things(50), 'things:2').source, `cursor=${cursor}`)).rejects.toMatchObject({ status: 422 });
    await expect(list(source, `cursor=${cursor}&page=2`)).rejects.toMatchObject({ status: 422 });
    await expect(list(source, `cursor=${cursor}`)).resolves.toMatchObject({ meta: { from: 11 } });
  });
});

describe('a sort, search or filter no index serves', () => {
  it('sorts by several fields over the window, and says so in meta', async () => {
    const page = await list(things(7), 'sort=-name');
    expect(page.data.map((t) => t.name)).toEqual(['golf', 'foxtrot', 'echo', 'delta', 'charlie', 'bravo', 'alpha']);
    expect(page.meta.window).toEqual({ size: 1000, complete: true });
  });

  it('says when the window did not hold the whole list', async () => {
    const page = await list(things(1500), 'search=alpha&per_page=100');
    expect(page.meta.window).toEqual({ size: 1000, complete: false });
    expect(page.meta.total).toBe(Math.ceil(1000 / 7));
    expect(page.links.next).toContain('page=2');
  });

  it('filters by search and by creation and update dates', async () => {
    expect(ids(await list(things(7), 'search=ALP'))).toEqual(['t1']);
    expect(ids(await list(things(7), 'created_after=2026-01-03&created_before=2026-01-06T00:00:00Z'))).toEqual(['t3', 't4']);
    expect(ids(await list(things(7), 'updated_before=2026-02-02'))).toEqual(['t0']);
  });

  it('refuses a cursor: it pages lists in their own order only', async () => {
    await expect(list(things(7), 'search=a&cursor=x.y')).rejects.toMatchObject({
      status: 422,
      extras: { errors: { cursor: expect.any(Array) } },
    });
  });

  it('refuses a date window that closes before it opens', async () => {
    await expect(list(things(7), 'created_after=2026-01-05&created_before=2026-01-02')).rejects.toThrow('invalid');
  });
});

describe('the list query', () => {
  it('clamps per_page to 100 and refuses values below 1 or non-integers', () => {
    expect(schema.parse({ per_page: '500' }).per_page).toBe(100);
    for (const bad of ['0', '-1', '2.5', 'ten']) expect(schema.safeParse({ per_page: bad }).success).toBe(false);
    expect(schema.safeParse({ page: '0' }).success).toBe(false);
  });

  it('refuses unknown sort fields, fields, includes, filters and parameters', () => {
    for (const raw of [
      { sort: 'tier' },
      { fields: 'secret' },
      { include: 'owner' },
      { status: 'active' },
      { colour: 'red' },
      { created_after: 'yesterday' },
    ]) {
      expect(schema.safeParse(raw).success).toBe(false);
    }
  });
});
