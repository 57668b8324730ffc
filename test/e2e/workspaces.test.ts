import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

describe('workspaces over HTTP', () => {
  it('creates, reads, updates, lists and deletes a workspace with the spec bodies and headers', async () => {
    const created = await api.call('POST', '/workspaces', { body: { name: 'Acme', tier: 'pro' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBeTruthy();
    expect(created.body.message).toEqual(expect.any(String));
    expect(created.body.data).toMatchObject({ name: 'Acme', slug: 'acme', tier: 'pro' });
    const id = created.body.data.id as string;

    const read = await api.call('GET', `/workspaces/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      id,
      name: 'Acme',
      slug: 'acme',
      tier: 'pro',
      settings: {
        timezone: 'UTC',
        locale: 'en',
        pixel: {
          enabled: false,
          features: { pageviews: true, events: true, sessions: true },
          sample_rate: 1,
          domains: [],
          test_domains: [],
        },
      },
      created_at: created.body.data.created_at,
      updated_at: created.body.data.updated_at,
    });

    const patched = await api.call('PATCH', `/workspaces/${id}`, {
      body: { name: 'Acme Corp', settings: { timezone: 'America/New_York' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Acme Corp', settings: { timezone: 'America/New_York', locale: 'en' } });

    const listed = await api.call('GET', '/workspaces');
    expect(listed.body.data.map((w: { id: string }) => w.id)).toContain(id);
    expect(listed.body.data.find((w: { id: string }) => w.id === id)).not.toHaveProperty('settings');

    const deleted = await api.call('DELETE', `/workspaces/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    const gone = await api.call('GET', `/workspaces/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: 'not_found', error_code: 'RESOURCE_NOT_FOUND', resource_type: 'workspace', resource_id: id });
  });

  it('pages, sorts and trims the list with absolute links', async () => {
    for (const name of ['Charlie', 'Alpha', 'Bravo']) await api.call('POST', '/workspaces', { body: { name } });
    const page = await api.call('GET', '/workspaces?sort=name&per_page=2&fields=name,slug&search=a');
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual([
      { id: expect.any(String), name: 'Admin workspace', slug: 'admin-workspace' },
      { id: expect.any(String), name: 'Alpha', slug: 'alpha' },
    ]);
    expect(page.body.meta).toEqual({
      current_page: 1,
      per_page: 2,
      total: 4,
      last_page: 2,
      from: 1,
      to: 2,
      window: { size: 1000, complete: true },
    });
    expect(page.body.links.next).toBe(`${api.runner.baseUrl}/workspaces?sort=name&per_page=2&fields=name%2Cslug&search=a&page=2`);
    const second = (await api.call('GET', page.body.links.next)).body as { data: { name: string }[]; links: { next: string | null } };
    expect(second.data.map((w) => w.name)).toEqual(['Bravo', 'Charlie']);
    expect(second.links.next).toBeNull();
  });

  it('validates names, slugs, tiers and settings with 422 and every bad field named', async () => {
    const tooLong = await api.call('POST', '/workspaces', {
      body: { name: 'x'.repeat(256), tier: 'platinum', slug: 'Not A Slug', settings: { timezone: 'Mars/Olympus' } },
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatchObject({ error: 'validation_failed', error_code: 'VALIDATION_FAILED' });
    expect(Object.keys(tooLong.body.errors).sort()).toEqual(['name', 'settings.timezone', 'slug', 'tier']);
    const missing = await api.call('POST', '/workspaces', { body: {} });
    expect(missing.body.errors.name).toBeDefined();
    const empty = await api.call('PATCH', `/workspaces/${api.runner.bootstrap!.workspaceId}`, { body: {} });
    expect(empty.status).toBe(422);
  });

  it('answers a malformed workspace id with 422 and an unknown one with 404', async () => {
    expect((await api.call('GET', '/workspaces/not-an-id')).status).toBe(422);
    expect((await api.call('GET', '/workspaces/wks_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
  });

  it('acts in another workspace of the same user named by X-Workspace-ID, and refuses foreign ones with 403', async () => {
    const other = await api.call('POST', '/workspaces', { body: { name: 'Second home' } });
    const keys = await api.call('GET', '/api-keys', { headers: { 'X-Workspace-ID': other.body.data.id } });
    expect(keys.status).toBe(200);
    expect(keys.body.data).toEqual([]);
    const foreign = await api.call('GET', '/api-keys?workspace_id=wks_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('access_denied');
  });
});

describe('workspace ids in paths', () => {
  it('reads a lower-case ULID as the same workspace, and says what an id looks like when one is malformed', async () => {
    const { id } = (await api.call('GET', '/workspaces')).body.data[0] as { id: string };
    const lower = `wks_${id.slice(4).toLowerCase()}`;
    const read = await api.call('GET', `/workspaces/${lower}`);
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(id);

    const malformed = await api.call('GET', '/workspaces/wks_nope');
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toEqual({ id: ['must be a workspace id: wks_ followed by 26 letters and digits (a ULID)'] });
  });
});
