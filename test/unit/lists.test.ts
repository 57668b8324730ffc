import { listQuerySchema, paginate, type ListSpec } from '#core/lists';

const spec: ListSpec = {
  fields: ['id', 'name', 'tier', 'created_at', 'updated_at'],
  sortable: ['name', 'created_at'],
  searchable: ['name'],
};
const schema = listQuerySchema(spec);
const url = new URL('https://api.example.com/api/v1/things?sort=name');

const items = Array.from({ length: 7 }, (_, i) => ({
  id: `t${i}`,
  name: ['delta', 'alpha', 'echo', 'bravo', 'charlie', 'golf', 'foxtrot'][i]!,
  tier: i % 2 ? 'pro' : 'free',
  created_at: `2026-01-0${i + 1}T00:00:00.000Z`,
  updated_at: `2026-02-0${i + 1}T00:00:00.000Z`,
}));

const query = (raw: Record<string, string>) => schema.parse(raw);

describe('list handling', () => {
  it('defaults to page 1 of 25 and reports meta and links', () => {
    const page = paginate(items, query({}), spec, url);
    expect(page.data).toHaveLength(7);
    expect(page.meta).toEqual({ current_page: 1, per_page: 25, total: 7, last_page: 1, from: 1, to: 7 });
    expect(page.links.prev).toBeNull();
    expect(page.links.next).toBeNull();
    expect(page.links.first).toBe('https://api.example.com/api/v1/things?sort=name&page=1');
  });

  it('pages with absolute links that keep the other parameters', () => {
    const page = paginate(items, query({ per_page: '3', page: '2' }), spec, url);
    expect(page.data.map((i) => i.id)).toEqual(['t3', 't4', 't5']);
    expect(page.meta).toMatchObject({ current_page: 2, last_page: 3, from: 4, to: 6, total: 7 });
    expect(page.links.prev).toBe('https://api.example.com/api/v1/things?sort=name&page=1');
    expect(page.links.next).toBe('https://api.example.com/api/v1/things?sort=name&page=3');
    expect(page.links.last).toBe('https://api.example.com/api/v1/things?sort=name&page=3');
  });

  it('answers an empty page past the end with from and to null', () => {
    const page = paginate(items, query({ page: '9' }), spec, url);
    expect(page.data).toEqual([]);
    expect(page.meta.from).toBeNull();
    expect(page.meta.to).toBeNull();
    expect(page.links.next).toBeNull();
  });

  it('clamps per_page to 100 and refuses values below 1 or non-integers', () => {
    expect(query({ per_page: '500' }).per_page).toBe(100);
    for (const bad of ['0', '-1', '2.5', 'ten']) expect(schema.safeParse({ per_page: bad }).success).toBe(false);
    expect(schema.safeParse({ page: '0' }).success).toBe(false);
  });

  it('sorts by several fields, descending with a leading minus', () => {
    const byName = paginate(items, query({ sort: '-name' }), spec, url);
    expect(byName.data.map((i) => i.name)).toEqual(['golf', 'foxtrot', 'echo', 'delta', 'charlie', 'bravo', 'alpha']);
  });

  it('trims items to the requested fields, always keeping id', () => {
    const page = paginate(items, query({ fields: 'name' }), spec, url);
    expect(page.data[0]).toEqual({ id: 't0', name: 'delta' });
  });

  it('filters by search and by creation and update dates', () => {
    expect(paginate(items, query({ search: 'ALP' }), spec, url).data.map((i) => i.id)).toEqual(['t1']);
    const created = paginate(items, query({ created_after: '2026-01-03', created_before: '2026-01-06T00:00:00Z' }), spec, url);
    expect(created.data.map((i) => i.id)).toEqual(['t3', 't4']);
    expect(paginate(items, query({ updated_before: '2026-02-02' }), spec, url).data.map((i) => i.id)).toEqual(['t0']);
  });

  it('refuses unknown sort fields, fields, includes, filters and parameters', () => {
    for (const raw of [{ sort: 'tier' }, { fields: 'secret' }, { include: 'owner' }, { status: 'active' }, { colour: 'red' }, { created_after: 'yesterday' }]) {
      expect(schema.safeParse(raw).success).toBe(false);
    }
  });

  it('refuses a date window that closes before it opens', () => {
    expect(() => paginate(items, query({ created_after: '2026-01-05', created_before: '2026-01-02' }), spec, url)).toThrow('invalid');
  });
});
