import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const hour = 3600 * 1000;

async function createKey(body: Record<string, unknown>, key = api.adminKey) {
  const created = await api.call('POST', '/api-keys', { key, body: { name: 'limits', ...body } });
  if (created.status !== 201) throw new Error(`POST /api-keys answered ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data as { id: string; key: string } & Record<string, unknown>;
}

const rotate = (id: string, key: string, body: Record<string, unknown> = {}) => api.call('POST', `/api-keys/${id}/rotate`, { key, body });

describe('rotation within the rotating credential', () => {
  it('gives the new key no later expiry and no wider IP list than the rotating key (runner clients come from 127.0.0.1)', async () => {
    const longLived = await createKey({ name: 'long lived', scopes: ['workspaces:read'] });
    const expiresAt = new Date(Date.now() + hour).toISOString();
    const rotator = await createKey({ name: 'brief', expires_at: expiresAt, allowed_ips: ['127.0.0.1/32'] });
    const rotated = await rotate(longLived.id, rotator.key);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({ expires_at: expiresAt, allowed_ips: ['127.0.0.1/32'], scopes: ['workspaces:read'] });

    const office = await createKey({ name: 'office', scopes: ['workspaces:read'], allowed_ips: ['10.0.0.0/8', '127.0.0.0/8'] });
    const narrowed = await rotate(office.id, rotator.key);
    expect(narrowed.body.data.allowed_ips).toEqual(['127.0.0.1/32']);
    const elsewhere = await createKey({ name: 'elsewhere', scopes: ['workspaces:read'], allowed_ips: ['10.0.0.0/8'] });
    expect((await rotate(elsewhere.id, rotator.key)).status).toBe(403);
  });

  it('keeps a test credential from turning a live key into a working sk_live_ key', async () => {
    const live = await createKey({ name: 'live', scopes: ['workspaces:read'] });
    const sandbox = await createKey({ name: 'sandbox', environment: 'test' });
    const answer = await rotate(live.id, sandbox.key);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('access_denied');
    expect((await api.call('GET', `/api-keys/${live.id}`)).body.data.status).toBe('active');
  });

  it('refuses to rotate a key of a higher tier than the rotating key, which also creates none above its own', async () => {
    const pro = await createKey({ name: 'pro', scopes: ['workspaces:read'], rate_limit_tier: 'pro' });
    const free = await createKey({ name: 'free', rate_limit_tier: 'free' });
    expect((await rotate(pro.id, free.key)).status).toBe(403);
    const higher = await api.call('POST', '/api-keys', { key: free.key, body: { name: 'higher', rate_limit_tier: 'pro' } });
    expect(higher.status).toBe(422);
    expect(higher.body.errors.rate_limit_tier).toBeDefined();
    expect((await createKey({ name: 'default' }, free.key)).rate_limit_tier).toBe('free');
  });

  it('takes api-keys:delete for grace_period_hours 0, which revokes the old key at once', async () => {
    const target = await createKey({ name: 'target', scopes: ['workspaces:read'] });
    const writer = await createKey({ name: 'writer', scopes: ['*:read', 'api-keys:write'] });
    const refused = await rotate(target.id, writer.key, { grace_period_hours: 0 });
    expect(refused.status).toBe(403);
    expect(refused.body.required_scope).toBe('api-keys:delete');
    expect((await api.call('GET', '/workspaces', { key: target.key })).status).toBe(200);
    expect((await rotate(target.id, writer.key, { grace_period_hours: 1 })).status).toBe(200);
  });

  it('says which grace period is whose: the old key\u2019s under previous_key, none on the new key', async () => {
    const old = await createKey({ name: 'which' });
    const rotated = await rotate(old.id, api.adminKey, { grace_period_hours: 2 });
    const { previous_key: previous, grace_period_ends_at: oldEnds, id } = rotated.body.data;
    expect(previous).toEqual({ id: old.id, grace_period_ends_at: oldEnds });
    expect((await api.call('GET', `/api-keys/${old.id}`)).body.data.grace_period_ends_at).toBe(oldEnds);
    expect((await api.call('GET', `/api-keys/${id}`)).body.data.grace_period_ends_at).toBeNull();
  });
});

describe('a new key\u2019s IP list', () => {
  it('lies within its creator\u2019s: no empty list, no wider range', async () => {
    const locked = await createKey({ name: 'locked', allowed_ips: ['127.0.0.1/32'] });
    for (const allowed_ips of [[], ['0.0.0.0/0', '::/0'], ['127.0.0.0/8']]) {
      const answer = await api.call('POST', '/api-keys', { key: locked.key, body: { name: 'escape', allowed_ips } });
      expect(answer.status).toBe(422);
      expect(answer.body.errors.allowed_ips).toBeDefined();
    }
    const same = await createKey({ name: 'same', allowed_ips: ['127.0.0.1', '::ffff:127.0.0.1'] }, locked.key);
    expect(same.allowed_ips).toEqual(['127.0.0.1', '::ffff:127.0.0.1']);
    const inherited = await createKey({ name: 'inherited' }, locked.key);
    expect(inherited.allowed_ips).toEqual(['127.0.0.1/32']);
  });

  it('is free for a credential without one', async () => {
    expect((await createKey({ name: 'anywhere', allowed_ips: [] })).allowed_ips).toEqual([]);
    expect((await createKey({ name: 'wide', allowed_ips: ['0.0.0.0/0'] })).allowed_ips).toEqual(['0.0.0.0/0']);
  });
});

describe('WWW-Authenticate', () => {
  it('challenges a refused Bearer credential with invalid_token (RFC 6750), and a request without one with Bearer', async () => {
    const refused = await api.call('GET', '/workspaces', { key: `sk_live_${'0'.repeat(32)}` });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"$/);
    const expired = await createKey({ name: 'brief', expires_at: new Date(Date.now() + 1000).toISOString() });
    await new Promise((r) => setTimeout(r, 1200));
    const late = await api.call('GET', '/workspaces', { key: expired.key });
    expect(late.body.error_code).toBe('TOKEN_EXPIRED');
    expect(late.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const anonymous = await api.call('GET', '/workspaces', { key: '' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
  });
});
