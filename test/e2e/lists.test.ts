import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  for (let i = 0; i < 9; i++) await api.call('POST', '/workspaces', { body: { name: `list ${i}` } });
});
afterAll(() => api.stop());

const cursorOf = (link: string) => new URL(link).searchParams.get('cursor')!;

describe('lists over HTTP', () => {
  it('walks a list by following links.next, a cursor, with no gaps or repeats', async () => {
    const all = await api.call('GET', '/workspaces?per_page=100');
    expect(all.body.meta).toMatchObject({ total: 10, window: null });
    const seen: string[] = [];
    let answer = await api.call('GET', '/workspaces?per_page=3');
    for (;;) {
      expect(answer.status).toBe(200);
      seen.push(...answer.body.data.map((w: { id: string }) => w.id));
      if (!answer.body.links.next) break;
      expect(answer.body.links.next).toMatch(new RegExp(`^${api.runner.baseUrl}/workspaces\\?per_page=3&cursor=`));
      answer = await api.call('GET', answer.body.links.next);
    }
    expect(seen).toEqual(all.body.data.map((w: { id: string }) => w.id));
    expect(answer.body.meta).toMatchObject({ current_page: 4, from: 10, to: 10, total: 10, last_page: 4 });
  });

  it('refuses a tampered cursor, and one from another list or tenant, with 422 in the envelope', async () => {
    const page = await api.call('GET', '/workspaces?per_page=2');
    const cursor = cursorOf(page.body.links.next);
    const other = await api.call('POST', '/workspaces', { body: { name: 'other tenant' } });
    for (let i = 0; i < 3; i++) await api.call('POST', '/api-keys', { body: { name: `k${i}` } });
    const keys = await api.call('GET', '/api-keys?per_page=1');
    const keyCursor = cursorOf(keys.body.links.next);
    for (const path of [
      `/workspaces?per_page=2&cursor=${cursor.slice(0, -3)}abc`,
      `/workspaces?per_page=2&cursor=${keyCursor}`,
      `/api-keys?cursor=${keyCursor}&workspace_id=${other.body.data.id}`,
    ]) {
      const refused = await api.call('GET', path);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ error_code: 'VALIDATION_FAILED', errors: { cursor: [expect.stringContaining('start again')] } });
    }
  });

  it('refuses page numbers beyond the first 10,000 items and says to use the cursor', async () => {
    const refused = await api.call('GET', '/workspaces?per_page=100&page=101');
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('cursor');
    expect(refused.body.errors.page[0]).toContain('links.next');
  });

  it('echoes per_page in links clamped to 100', async () => {
    const page = await api.call('GET', '/workspaces?per_page=100000&sort=name');
    expect(page.body.meta.per_page).toBe(100);
    expect(page.body.links.first).toBe(`${api.runner.baseUrl}/workspaces?per_page=100&sort=name&page=1`);
  });

  it('refuses a date filter on a field the list has not, an impossible date and a time without its zone', async () => {
    const noUpdatedAt = await api.call('GET', '/api-keys?updated_after=2000-01-01');
    expect(noUpdatedAt.status).toBe(422);
    expect(noUpdatedAt.body.errors.updated_after[0]).toContain('no updated_at');
    for (const bad of ['2026-02-30', '2026-11-23%2002:43', '2026-13-01T00:00:00Z', '2026-11-23T24:00:00Z']) {
      const answer = await api.call('GET', `/workspaces?created_after=${bad}`);
      expect(answer.status).toBe(422);
      expect(Object.keys(answer.body.errors)).toEqual(['created_after']);
    }
    for (const good of ['2026-02-28', '2026-11-23T02:43:00Z', '2026-11-23T02:43:00.123+02:00']) {
      expect((await api.call('GET', `/workspaces?created_after=${encodeURIComponent(good)}`)).status).toBe(200);
    }
  });

  it('states the window of a sort or search no index serves', async () => {
    const page = await api.call('GET', '/workspaces?sort=-name&search=list');
    expect(page.body.meta.window).toEqual({ size: 1000, complete: true });
    expect(page.body.data.map((w: { name: string }) => w.name)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0].map((i) => `list ${i}`));
    const byIndex = await api.call('GET', '/workspaces?sort=-created_at&per_page=1');
    expect(byIndex.body.meta.window).toBeNull();
  });

  it('refuses a page or per_page of absurd length with 422 naming the parameter', async () => {
    for (const [param, value] of [
      ['page', '9'.repeat(400)],
      ['page', '1'.repeat(10)],
      ['per_page', '5'.repeat(400)],
    ] as const) {
      const answer = await api.call('GET', `/workspaces?${param}=${value}`);
      expect(answer.status).toBe(422);
      expect(answer.body.errors[param]).toEqual(['must be at most 999999999']);
    }
  });
});
