import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

describe('API keys over HTTP', () => {
  it('shows the key once on create, then only its prefix', async () => {
    const created = await api.call('POST', '/api-keys', { body: { name: 'CI deploys' } });
    expect(created.status).toBe(201);
    const key = created.body.data;
    expect(key.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(key).toMatchObject({
      name: 'CI deploys',
      prefix: key.key.slice(0, 16),
      scopes: ['*:read', '*:write'],
      rate_limit_tier: 'enterprise',
      environment: 'live',
      workspace_id: api.runner.bootstrap!.workspaceId,
      expires_at: null,
      last_used_at: null,
    });

    const read = await api.call('GET', `/api-keys/${key.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty('key');
    expect(read.body.data.prefix).toBe(key.prefix);
    const listed = await api.call('GET', '/api-keys');
    expect(JSON.stringify(listed.body)).not.toContain(key.key);
    expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(key.id);
  });

  it('works with the new key, and answers 401 once it is deleted', async () => {
    const created = await api.call('POST', '/api-keys', {
      body: { name: 'short-lived', environment: 'test', scopes: ['workspaces:read'] },
    });
    const key = created.body.data.key as string;
    expect(key.startsWith('sk_test_')).toBe(true);
    expect((await api.call('GET', '/workspaces', { key })).status).toBe(200);
    const deleted = await api.call('DELETE', `/api-keys/${created.body.data.id}`);
    expect(deleted.status).toBe(204);
    const after = await api.call('GET', '/workspaces', { key });
    expect(after.status).toBe(401);
    expect(after.body.error_code).toBe('INVALID_API_KEY');
    expect((await api.call('GET', `/api-keys/${created.body.data.id}`)).status).toBe(404);
  });

  it('refuses unknown scopes, past expiry and scopes beyond its own', async () => {
    const unknown = await api.call('POST', '/api-keys', { body: { name: 'x', scopes: ['rockets:launch'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors['scopes.0']).toBeDefined();
    const past = await api.call('POST', '/api-keys', { body: { name: 'x', expires_at: '2001-01-01T00:00:00Z' } });
    expect(past.status).toBe(422);
    expect(past.body.errors.expires_at).toBeDefined();
    const narrow = await api.call('POST', '/api-keys', { body: { name: 'narrow', scopes: ['api-keys:write', 'workspaces:read'] } });
    const escalate = await api.call('POST', '/api-keys', { key: narrow.body.data.key, body: { name: 'wide', scopes: ['*'] } });
    expect(escalate.status).toBe(403);
    expect(escalate.body.error).toBe('access_denied');
  });

  it('answers 401 TOKEN_EXPIRED with meta.expired_at for an expired key', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const created = await api.call('POST', '/api-keys', { body: { name: 'brief', expires_at: expiresAt } });
    expect(created.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1600));
    const answer = await api.call('GET', '/workspaces', { key: created.body.data.key });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'unauthorized', error_code: 'TOKEN_EXPIRED', meta: { expired_at: expiresAt } });
  });

  it('hides keys of other workspaces behind 404', async () => {
    const other = await api.call('POST', '/workspaces', { body: { name: 'Elsewhere' } });
    const foreignKey = await api.call('POST', '/api-keys', { body: { name: 'there', workspace_id: other.body.data.id } });
    expect(foreignKey.body.data.workspace_id).toBe(other.body.data.id);
    expect((await api.call('GET', `/api-keys/${foreignKey.body.data.id}`)).status).toBe(404);
    expect((await api.call('DELETE', `/api-keys/${foreignKey.body.data.id}`)).status).toBe(404);
    const there = await api.call('GET', `/api-keys/${foreignKey.body.data.id}`, { headers: { 'X-Workspace-ID': other.body.data.id } });
    expect(there.status).toBe(200);
  });
});
