import { registerVerified } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential, mintUserToken } from '../support/sessions.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const password = 'suspended for now';
const bootstrap = () => api.runner.bootstrap!;
const key = (bearer: string): Credential => ({ type: 'api_key', bearer });

describe('workspace suspension', () => {
  let sue: Credential;
  let sueKey: Credential;
  let sueToken: Credential;
  let workspaceId: string;

  beforeAll(async () => {
    sue = (await registerVerified(api, { name: 'Sue', email: 'sue@example.com', password })).session;
    workspaceId = (await api.call('GET', '/workspaces', as(sue))).body.data[0].id;
    const created = await api.call('POST', '/api-keys', as(sue, { body: { name: 'sue key', scopes: ['*'] } }));
    expect(created.status).toBe(201);
    sueKey = key(created.body.data.key);
    sueToken = { type: 'user_token', bearer: (await mintUserToken(api, sue, { name: 'sue token' })).token };
  });

  it('answers 403 WORKSPACE_SUSPENDED with meta.suspended_at and meta.reason to every credential of the workspace, keeps GET /user, and resume restores access', async () => {
    const suspended = await api.call('POST', `/admin/workspaces/${workspaceId}/suspend`, { body: { reason: 'Unpaid invoice' } });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toMatchObject({ id: workspaceId, suspended_at: expect.any(String), suspended_reason: 'Unpaid invoice' });
    const suspendedAt = suspended.body.data.suspended_at;

    for (const credential of [sueKey, sueToken, sue]) {
      const refused = await api.call('GET', '/workspaces', as(credential));
      expect({ type: credential.type, status: refused.status }).toEqual({ type: credential.type, status: 403 });
      expect(refused.body).toMatchObject({
        error: 'access_denied',
        error_code: 'WORKSPACE_SUSPENDED',
        meta: { suspended_at: suspendedAt, reason: 'Unpaid invoice' },
      });
      const write = await api.call('POST', '/workspaces', as(credential, { body: { name: 'While suspended' } }));
      expect(write.status).toBe(403);
      const me = await api.call('GET', '/user', as(credential));
      expect({ type: credential.type, status: me.status }).toEqual({ type: credential.type, status: 200 });
      expect(me.body.data.email).toBe('sue@example.com');
    }
    // Other tenants are not affected.
    expect((await api.call('GET', '/workspaces')).status).toBe(200);

    const resumed = await api.call('POST', `/admin/workspaces/${workspaceId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ id: workspaceId, suspended_at: null, suspended_reason: null });
    for (const credential of [sueKey, sueToken, sue]) {
      const back = await api.call('GET', '/workspaces', as(credential));
      expect({ type: credential.type, status: back.status }).toEqual({ type: credential.type, status: 200 });
    }
    const names = (await api.call('GET', '/workspaces', as(sue))).body.data.map((w: { name: string }) => w.name);
    expect(names).not.toContain('While suspended');
  });

  it('answers 403 WORKSPACE_SUSPENDED when a credential names a suspended workspace of its user in X-Workspace-ID, while its home still works', async () => {
    const side = await api.call('POST', '/workspaces', as(sueKey, { body: { name: 'Side project' } }));
    expect(side.status).toBe(201);
    const sideId = side.body.data.id;
    expect((await api.call('POST', `/admin/workspaces/${sideId}/suspend`, { body: { reason: 'Abuse report' } })).status).toBe(200);
    try {
      for (const credential of [sueKey, sueToken, sue]) {
        const there = await api.call('GET', '/api-keys', as(credential, { headers: { 'X-Workspace-ID': sideId } }));
        expect({ type: credential.type, status: there.status, code: there.body.error_code }).toEqual({
          type: credential.type,
          status: 403,
          code: 'WORKSPACE_SUSPENDED',
        });
        expect(there.body.meta).toMatchObject({ suspended_at: expect.any(String), reason: 'Abuse report' });
        expect((await api.call('GET', '/api-keys', as(credential))).status).toBe(200);
      }
    } finally {
      expect((await api.call('POST', `/admin/workspaces/${sideId}/resume`)).status).toBe(200);
    }
    expect((await api.call('GET', '/api-keys', as(sueKey, { headers: { 'X-Workspace-ID': sideId } }))).status).toBe(200);
  });

  it('refuses the admin routes (403) to a credential with scope * whose user is not a platform admin', async () => {
    const target = bootstrap().workspaceId;
    for (const credential of [sueKey, sueToken, sue]) {
      const suspend = await api.call('POST', `/admin/workspaces/${target}/suspend`, as(credential, { body: { reason: 'mischief' } }));
      expect({ type: credential.type, status: suspend.status }).toEqual({ type: credential.type, status: 403 });
      expect(suspend.body.error).toBe('access_denied');
      const resume = await api.call('POST', `/admin/workspaces/${workspaceId}/resume`, as(credential));
      expect({ type: credential.type, status: resume.status }).toEqual({ type: credential.type, status: 403 });
    }
    expect((await api.call('GET', '/workspaces')).status).toBe(200);
  });

  it('refuses a suspension without a reason with 422, and a well-formed unknown workspace with 404', async () => {
    const noReason = await api.call('POST', `/admin/workspaces/${workspaceId}/suspend`, { body: {} });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason).toBeDefined();
    const unknown = await api.call('POST', '/admin/workspaces/wks_01ARZ3NDEKTSV4RRFFQ69G5FAV/suspend', { body: { reason: 'x' } });
    expect(unknown.status).toBe(404);
    expect((await api.call('GET', '/workspaces', as(sueKey))).status).toBe(200);
  });
});
