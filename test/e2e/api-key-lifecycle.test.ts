import { startTestApiOnTable, type TableTestApi } from '../support/table-api.ts';

let api: TableTestApi;
beforeAll(async () => {
  api = await startTestApiOnTable();
});
afterAll(() => api.stop());

const hour = 3600 * 1000;
const sleepUntil = (iso: string) => new Promise((r) => setTimeout(r, Math.max(0, Date.parse(iso) - Date.now() + 100)));

async function createKey(body: Record<string, unknown>) {
  const created = await api.call('POST', '/api-keys', { body: { name: 'lifecycle', ...body } });
  if (created.status !== 201) throw new Error(`POST /api-keys answered ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data as { id: string; key: string } & Record<string, unknown>;
}

const works = async (key: string) => (await api.call('GET', '/workspaces', { key })).status;

describe('API key rotation', () => {
  it('issues a new key with the same scopes, tier, environment, allowed_ips and expiry; both work during a 24 h grace period', async () => {
    const expiresAt = new Date(Date.now() + 7 * 24 * hour).toISOString();
    const old = await createKey({
      name: 'deploys',
      scopes: ['workspaces:read', 'api-keys:read'],
      rate_limit_tier: 'pro',
      environment: 'test',
      allowed_ips: ['127.0.0.1/32', '10.0.0.0/8'],
      expires_at: expiresAt,
    });
    const before = Date.now();
    const rotated = await api.call('POST', `/api-keys/${old.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.message).toEqual(expect.any(String));
    const fresh = rotated.body.data;
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(fresh.key).not.toBe(old.key);
    expect(fresh.prefix).toBe(fresh.key.slice(0, 16));
    expect(fresh).toMatchObject({
      name: 'deploys',
      scopes: ['workspaces:read', 'api-keys:read'],
      rate_limit_tier: 'pro',
      environment: 'test',
      allowed_ips: ['127.0.0.1/32', '10.0.0.0/8'],
      expires_at: expiresAt,
      workspace_id: old.workspace_id,
      last_used_at: null,
    });
    const graceEnds = Date.parse(fresh.grace_period_ends_at);
    expect(graceEnds).toBeGreaterThanOrEqual(before + 24 * hour - 1000);
    expect(graceEnds).toBeLessThanOrEqual(Date.now() + 24 * hour + 1000);

    expect(await works(old.key)).toBe(200);
    expect(await works(fresh.key)).toBe(200);
    const read = await api.call('GET', `/api-keys/${fresh.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty('key');
    expect(read.body.data).toMatchObject({ status: 'active', grace_period_ends_at: null });

    // The rotated-out key says so, on GET and in the list.
    const oldRead = await api.call('GET', `/api-keys/${old.id}`);
    expect(oldRead.body.data).toMatchObject({ status: 'grace_period', grace_period_ends_at: fresh.grace_period_ends_at });
    const listed = await api.call('GET', '/api-keys?per_page=100');
    expect(listed.body.data.find((k: { id: string }) => k.id === old.id)).toMatchObject({
      status: 'grace_period',
      grace_period_ends_at: fresh.grace_period_ends_at,
    });
    const inGrace = await api.call('GET', '/api-keys?status=grace_period');
    expect(inGrace.body.data.map((k: { id: string }) => k.id)).toEqual([old.id]);

    // A key already in its grace period cannot be rotated again, and says why.

    const again = await api.call('POST', `/api-keys/${old.id}/rotate`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'conflict',
      error_code: 'STATE_CONFLICT',
      current_state: 'grace_period',
      requested_action: 'rotate',
    });
    expect(again.body.message).toBe(
      'The key was rotated already and works only until its grace period ends; rotate the key that replaced it.',
    );
    expect(await works(old.key)).toBe(200);
  });

  it('ends the old key at once with grace_period_hours 0', async () => {
    const old = await createKey({ name: 'leaked' });
    expect(await works(old.key)).toBe(200);
    const rotated = await api.call('POST', `/api-keys/${old.id}/rotate`, { body: { grace_period_hours: 0 } });
    expect(rotated.status).toBe(200);
    expect(Date.parse(rotated.body.data.grace_period_ends_at)).toBeLessThanOrEqual(Date.now());
    const oldAnswer = await api.call('GET', '/workspaces', { key: old.key });
    expect(oldAnswer.status).toBe(401);
    expect(oldAnswer.body.error).toBe('unauthorized');
    expect(await works(rotated.body.data.key)).toBe(200);
    expect((await api.call('GET', `/api-keys/${old.id}`)).status).toBe(404);
  });

  it('does not report a key whose grace period has ended as being in its grace period', async () => {
    const old = await createKey({ name: 'rotated out' });
    expect((await api.call('POST', `/api-keys/${old.id}/rotate`, { body: { grace_period_hours: 0 } })).status).toBe(200);
    expect((await api.call('GET', `/api-keys/${old.id}`)).status).toBe(404);
    expect((await api.call('DELETE', `/api-keys/${old.id}`)).status).toBe(404);
    const again = await api.call('POST', `/api-keys/${old.id}/rotate`);
    expect({ status: again.status, error_code: again.body.error_code }).toEqual({ status: 404, error_code: 'RESOURCE_NOT_FOUND' });
  });

  it('takes grace_period_hours as stated: a custom period is honoured', async () => {
    const old = await createKey({ name: 'custom grace' });
    const rotated = await api.call('POST', `/api-keys/${old.id}/rotate`, { body: { grace_period_hours: 2 } });
    expect(rotated.status).toBe(200);
    const ends = Date.parse(rotated.body.data.grace_period_ends_at);
    expect(Math.abs(ends - (Date.now() + 2 * hour))).toBeLessThan(5000);
  });

  it('answers a revoked key with 404 on get, rotate and revoke alike', async () => {
    const old = await createKey({ name: 'revoked' });
    expect((await api.call('DELETE', `/api-keys/${old.id}`)).status).toBe(204);
    for (const [method, path] of [
      ['GET', `/api-keys/${old.id}`],
      ['POST', `/api-keys/${old.id}/rotate`],
      ['DELETE', `/api-keys/${old.id}`],
    ] as const) {
      const answer = await api.call(method, path);
      expect({ status: answer.status, error_code: answer.body.error_code }).toEqual({ status: 404, error_code: 'RESOURCE_NOT_FOUND' });
    }
    expect(await works(old.key)).toBe(401);
  });

  it('refuses to rotate an expired key with 409 STATE_CONFLICT, current_state expired', async () => {
    const old = await createKey({ name: 'expiring', expires_at: new Date(Date.now() + 1500).toISOString() });
    await sleepUntil(old.expires_at as string);
    const answer = await api.call('POST', `/api-keys/${old.id}/rotate`);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error_code: 'STATE_CONFLICT', current_state: 'expired', requested_action: 'rotate' });
    expect((await api.call('GET', '/workspaces', { key: old.key })).body.error_code).toBe('TOKEN_EXPIRED');
  });

  it.each([[-1], [1000], ['x'], [1.5], [null]])('refuses grace_period_hours %p with 422 and leaves the key as it was', async (value) => {
    const old = await createKey({ name: 'bad grace' });
    const answer = await api.call('POST', `/api-keys/${old.id}/rotate`, { body: { grace_period_hours: value } });
    expect(answer.status).toBe(422);
    expect(answer.body.error_code).toBe('VALIDATION_FAILED');
    expect(answer.body.errors.grace_period_hours).toBeDefined();
    // Not rotated: a valid rotation still succeeds.
    expect((await api.call('POST', `/api-keys/${old.id}/rotate`, { body: { grace_period_hours: 1 } })).status).toBe(200);
  });

  it('refuses (403) a rotation by a credential that lacks some scope of the key', async () => {
    const wide = await createKey({ name: 'wide', scopes: ['*:read', '*:write'] });
    const rotator = await createKey({ name: 'rotator', scopes: ['api-keys:write', 'api-keys:read'] });
    const answer = await api.call('POST', `/api-keys/${wide.id}/rotate`, { key: rotator.key });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('access_denied');
    expect(await works(wide.key)).toBe(200);
    const keys = await api.call('GET', '/api-keys?search=wide');
    expect(keys.body.data.map((k: { id: string }) => k.id)).toEqual([wide.id]);
  });
});

describe('API key IP allow-lists', () => {
  it('refuses a key from outside its allowed_ips with 403, and serves it from inside', async () => {
    const elsewhere = await createKey({ name: 'office only', allowed_ips: ['10.0.0.0/8'] });
    const refused = await api.call('GET', '/workspaces', { key: elsewhere.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('access_denied');

    // The runner listens on 127.0.0.1: requests arrive from 127.0.0.1.
    const loopback = await createKey({ name: 'loopback', allowed_ips: ['127.0.0.1/32'] });
    expect(await works(loopback.key)).toBe(200);
    const listed = await createKey({ name: 'list', allowed_ips: ['10.0.0.0/8', '127.0.0.1'] });
    expect(await works(listed.key)).toBe(200);
    const v6Only = await createKey({ name: 'v6 loopback', allowed_ips: ['::1'] });
    expect(await works(v6Only.key)).toBe(403);
  });

  it('treats an IPv4-mapped IPv6 entry (::ffff:127.0.0.1) as its IPv4 address', async () => {
    const mapped = await createKey({ name: 'mapped', allowed_ips: ['::ffff:127.0.0.1'] });
    expect(await works(mapped.key)).toBe(200);
    const mappedRange = await createKey({ name: 'mapped range', allowed_ips: ['::ffff:127.0.0.0/104'] });
    expect(await works(mappedRange.key)).toBe(200);
  });

  it('matches the IPv4 form of a dual-stack socket address (::ffff:127.0.0.1) and IPv6 loopback (::1)', async () => {
    // Over HTTP: what is checked is the address the socket reports.
    const dual = await startTestApiOnTable({ tableName: api.tableName, host: '::', over: 'http' });
    try {
      const v4Key = await createKey({ name: 'v4', allowed_ips: ['127.0.0.1/32'] });
      const v6Key = await createKey({ name: 'v6', allowed_ips: ['::1'] });
      const remote = await createKey({ name: 'remote', allowed_ips: ['10.0.0.0/8'] });
      const port = new URL(dual.runner.origin).port;
      const viaV4 = `http://127.0.0.1:${port}/api/v1/workspaces`;
      const viaV6 = `http://[::1]:${port}/api/v1/workspaces`;
      // Over IPv4 to a dual-stack socket the source address reads ::ffff:127.0.0.1.
      expect((await dual.call('GET', viaV4, { key: v4Key.key })).status).toBe(200);
      expect((await dual.call('GET', viaV4, { key: v6Key.key })).status).toBe(403);
      expect((await dual.call('GET', viaV4, { key: remote.key })).status).toBe(403);
      expect((await dual.call('GET', viaV6, { key: v6Key.key })).status).toBe(200);
      expect((await dual.call('GET', viaV6, { key: v4Key.key })).status).toBe(403);
    } finally {
      await dual.stop();
    }
  });

  it.each([['not-an-ip'], ['10.0.0.0/33'], ['300.1.1.1'], ['']])('refuses allowed_ips entry %p with 422', async (entry) => {
    const answer = await api.call('POST', '/api-keys', { body: { name: 'bad ip', allowed_ips: ['127.0.0.1', entry] } });
    expect(answer.status).toBe(422);
    expect(answer.body.errors['allowed_ips.1']).toBeDefined();
  });
});

describe('last_used_at', () => {
  it('is null before use, set by the first use, and not rewritten by a second use within a minute', async () => {
    const key = await createKey({ name: 'usage' });
    expect(key.last_used_at).toBeNull();
    expect((await api.call('GET', `/api-keys/${key.id}`)).body.data.last_used_at).toBeNull();

    const before = Date.now();
    expect(await works(key.key)).toBe(200);
    const first = (await api.call('GET', `/api-keys/${key.id}`)).body.data.last_used_at;
    expect(first).toEqual(expect.any(String));
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now() + 1000);

    await new Promise((r) => setTimeout(r, 1100));
    expect(await works(key.key)).toBe(200);
    expect((await api.call('GET', `/api-keys/${key.id}`)).body.data.last_used_at).toBe(first);
  });
});

describe('revocation', () => {
  it('answers 401 on the very next request after DELETE, although the authorizer has the key cached', async () => {
    const key = await createKey({ name: 'cached' });
    for (let i = 0; i < 3; i++) expect(await works(key.key)).toBe(200);
    const deleted = await api.call('DELETE', `/api-keys/${key.id}`);
    expect(deleted.status).toBe(204);
    const bearer = await api.call('GET', '/workspaces', { key: key.key });
    expect(bearer.status).toBe(401);
    expect(bearer.body.error_code).toBe('INVALID_API_KEY');
    const basic = await api.call('GET', '/workspaces', {
      key: '',
      headers: { Authorization: `Basic ${Buffer.from(`${key.key}:`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    expect((await api.call('GET', `/api-keys/${key.id}`)).status).toBe(404);
    expect((await api.call('GET', '/api-keys')).body.data.map((k: { id: string }) => k.id)).not.toContain(key.id);
    expect((await api.call('DELETE', `/api-keys/${key.id}`)).status).toBe(404);
  });
});
