import { verifyByMail } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, login, register } from '../support/sessions.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const createKey = (key: string, body: Record<string, unknown>) => api.call('POST', '/api-keys', { key, body });

describe('what a credential may create and change', () => {
  it('lets only the key\u2019s own user rotate it, and only its user or an owner revoke it', async () => {
    await register(api, { name: 'Mia Member', email: 'mia@example.com', password: 'member password' });
    await verifyByMail(api, 'mia@example.com');
    const invited = await api.call('POST', '/users', { body: { email: 'mia@example.com', role: 'member' } });
    expect(invited.status).toBe(202);
    const mia = await login(api, 'mia@example.com', 'member password');
    const home = { 'X-Workspace-ID': api.runner.bootstrap!.workspaceId };
    expect((await api.call('POST', `/user/invitations/${api.runner.bootstrap!.workspaceId}/accept`, as(mia.session))).status).toBe(200);
    const ownerKey = (await createKey(api.adminKey, { name: 'owner key' })).body.data;

    const rotated = await api.call('POST', `/api-keys/${ownerKey.id}/rotate`, as(mia.session, { body: {}, headers: home }));
    expect(rotated.status).toBe(403);
    const revoked = await api.call('DELETE', `/api-keys/${ownerKey.id}`, as(mia.session, { headers: home }));
    expect(revoked.status).toBe(403);
    expect((await api.call('GET', '/workspaces', { key: ownerKey.key })).status).toBe(200);

    const miasKey = await api.call('POST', '/api-keys', as(mia.session, { body: { name: 'mia key' }, headers: home }));
    expect(miasKey.status).toBe(201);
    expect((await api.call('DELETE', `/api-keys/${miasKey.body.data.id}`)).status).toBe(204);
  });

  it('gives a new key no later expiry, no wider IP list and no higher tier than its creator has', async () => {
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const creator = (
      await createKey(api.adminKey, { name: 'bounded', expires_at: expiresAt, allowed_ips: ['127.0.0.1', '::1', '::ffff:127.0.0.1'] })
    ).body.data;
    const inherited = await createKey(creator.key, { name: 'child' });
    expect(inherited.status).toBe(201);
    expect(inherited.body.data.expires_at).toBe(expiresAt);
    expect(inherited.body.data.allowed_ips).toEqual(creator.allowed_ips);
    const later = await createKey(creator.key, { name: 'later', expires_at: new Date(Date.now() + 7200_000).toISOString() });
    expect(later.status).toBe(422);
    expect(later.body.errors.expires_at).toBeDefined();

    const free = await api.call('POST', '/workspaces', { body: { name: 'Free plan', tier: 'free' } });
    const tooHigh = await createKey(api.adminKey, { name: 'vip', rate_limit_tier: 'enterprise', workspace_id: free.body.data.id });
    expect(tooHigh.status).toBe(422);
    expect(tooHigh.body.errors.rate_limit_tier).toBeDefined();
  });

  it('keeps a test credential to test keys', async () => {
    const testKey = (await createKey(api.adminKey, { name: 'sandbox', environment: 'test' })).body.data.key;
    expect((await createKey(testKey, { name: 'escape', environment: 'live' })).status).toBe(403);
    const sibling = await createKey(testKey, { name: 'sibling' });
    expect(sibling.body.data.environment).toBe('test');
  });

  it('refuses scope names that are only object properties, and IPs in odd spellings', async () => {
    for (const scope of ['constructor', '__proto__', 'toString']) {
      expect((await createKey(api.adminKey, { name: 'x', scopes: [scope] })).status).toBe(422);
    }
    for (const ip of ['012.0.0.1', '1.2.3', '167772161', '0x7f.0.0.1']) {
      expect((await createKey(api.adminKey, { name: 'x', allowed_ips: [ip] })).status).toBe(422);
    }
  });

  it('lets a credential pass on an alias it holds', async () => {
    const reader = (await createKey(api.adminKey, { name: 'reader', scopes: ['read:all', 'api-keys:write'] })).body.data.key;
    expect((await createKey(reader, { name: 'reader too', scopes: ['read:all'] })).status).toBe(201);
  });

  it('refuses Basic credentials with a password, and bearer headers with more than one token', async () => {
    const basic = Buffer.from(`${api.adminKey}:secret`).toString('base64');
    expect((await api.call('GET', '/workspaces', { key: '', headers: { Authorization: `Basic ${basic}` } })).status).toBe(401);
    expect((await api.call('GET', '/workspaces', { key: '', headers: { Authorization: `Bearer ${api.adminKey} extra` } })).status).toBe(
      401,
    );
  });

  it('stops a suspended workspace\u2019s credentials everywhere, and its records for everyone', async () => {
    const other = await api.call('POST', '/workspaces', { body: { name: 'Side project' } });
    const doomed = await api.call('POST', '/workspaces', { body: { name: 'Doomed' } });
    const doomedKey = (await createKey(api.adminKey, { name: 'doomed key', workspace_id: doomed.body.data.id })).body.data.key;
    const suspended = await api.call('POST', `/admin/workspaces/${doomed.body.data.id}/suspend`, { body: { reason: 'testing' } });
    expect(suspended.status).toBe(200);
    const elsewhere = await api.call('GET', '/api-keys', { key: doomedKey, headers: { 'X-Workspace-ID': other.body.data.id } });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error_code).toBe('WORKSPACE_SUSPENDED');
    const read = await api.call('GET', `/workspaces/${doomed.body.data.id}`);
    expect(read.status).toBe(403);
    expect(read.body.error_code).toBe('WORKSPACE_SUSPENDED');
  });
});

describe('logins', () => {
  it('let no more than five wrong passwords through per email, however many arrive at once', async () => {
    await register(api, { name: 'Pat', email: 'pat.parallel@example.com', password: 'right password' });
    const attempts = await Promise.all(
      Array.from({ length: 12 }, () =>
        api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email: 'pat.parallel@example.com', password: 'wrong' } }),
      ),
    );
    const statuses = attempts.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('keep a user\u2019s own workspace as the session\u2019s, even after someone adds them to an older one', async () => {
    await register(api, { name: 'Vic', email: 'vic@example.com', password: 'victim password' });
    await verifyByMail(api, 'vic@example.com');
    const before = await login(api, 'vic@example.com', 'victim password');
    const own = (await api.call('GET', '/api-keys', as(before.session))).status;
    expect(own).toBe(200);
    const ownWorkspace = (await api.call('GET', '/workspaces', as(before.session))).body.data[0].id;
    // The bootstrap workspace is older than Vic's; its owner invites Vic, and Vic accepts.
    expect((await api.call('POST', '/users', { body: { email: 'vic@example.com' } })).status).toBe(202);
    const accepted = await api.call('POST', `/user/invitations/${api.runner.bootstrap!.workspaceId}/accept`, as(before.session));
    expect(accepted.status).toBe(200);
    const after = await login(api, 'vic@example.com', 'victim password');
    const token = await api.call('POST', '/user/tokens', as(after.session, { body: { name: 'where am I' } }));
    expect(token.body.data.workspace_id).toBe(ownWorkspace);
  });
});
