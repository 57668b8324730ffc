import { registerVerified } from '../support/accounts.ts';
import { runAdmin } from '../support/admin-cli.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential } from '../support/sessions.ts';

/** A workspace a platform admin marks unpaid: 402 PAYMENT_REQUIRED but for what lets its tenant settle or leave. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const markAs = (workspaceId: string, billing_status: 'paid' | 'unpaid') =>
  api.call('PATCH', `/admin/workspaces/${workspaceId}`, { body: { billing_status } });

describe('an unpaid workspace', () => {
  let pat: Credential;
  let patKey: Credential;
  let home: string;

  beforeAll(async () => {
    pat = (await registerVerified(api, { name: 'Pat', email: 'pat@example.com', password: 'unpaid for now' })).session;
    home = (await api.call('GET', '/workspaces', as(pat))).body.data[0].id;
    const created = await api.call('POST', '/api-keys', as(pat, { body: { name: 'pat key', scopes: ['*'] } }));
    patKey = { type: 'api_key', bearer: created.body.data.key };
  });

  it('answers 402 with upgrade_url and meta.unpaid_since on REST, batch and MCP calls, keeps reading, listing and the account, and paid restores it', async () => {
    const marked = await markAs(home, 'unpaid');
    expect(marked.status).toBe(200);
    expect(marked.body.data).toMatchObject({ id: home, billing_status: 'unpaid', unpaid_since: expect.any(String) });
    const since = marked.body.data.unpaid_since;

    for (const credential of [patKey, pat]) {
      for (const [method, path, body] of [
        ['GET', '/api-keys', undefined],
        ['POST', '/posts', { title: 'While unpaid' }],
        ['POST', '/resources/batch', { operations: [{ action: 'create', data: { title: 'Batched' } }] }],
        ['POST', '/mcp/tools/call', { server: 'posts', tool: 'list_posts', arguments: {} }],
      ] as const) {
        const refused = await api.call(method, path, as(credential, { body }));
        expect({ path, status: refused.status }).toEqual({ path, status: 402 });
        expect(refused.body).toMatchObject({
          error: 'payment_required',
          error_code: 'PAYMENT_REQUIRED',
          upgrade_url: expect.stringMatching(/^https?:\/\//),
          meta: { unpaid_since: since },
        });
      }
      expect((await api.call('GET', '/workspaces', as(credential))).status).toBe(200);
      expect((await api.call('GET', `/workspaces/${home}`, as(credential))).status).toBe(200);
      expect((await api.call('GET', '/user', as(credential))).status).toBe(200);
    }
    // Other tenants are not affected.
    expect((await api.call('GET', '/api-keys')).status).toBe(200);

    // The same status again changes nothing.
    expect((await markAs(home, 'unpaid')).body.data.unpaid_since).toBe(since);
    const paid = await markAs(home, 'paid');
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ billing_status: 'paid', unpaid_since: null });
    expect((await api.call('GET', '/api-keys', as(patKey))).status).toBe(200);
  });

  it('answers 402 when a credential names an unpaid workspace of its user, while its paid home still works', async () => {
    const side = (await api.call('POST', '/workspaces', as(patKey, { body: { name: 'Side business' } }))).body.data.id;
    expect((await markAs(side, 'unpaid')).status).toBe(200);
    const there = await api.call('GET', '/api-keys', as(patKey, { headers: { 'X-Workspace-ID': side } }));
    expect(there.status).toBe(402);
    expect(there.body.error_code).toBe('PAYMENT_REQUIRED');
    expect((await api.call('GET', '/api-keys', as(patKey))).status).toBe(200);
    // Leaving stays open: the unpaid workspace can be deleted.
    expect((await api.call('DELETE', `/workspaces/${side}`, as(patKey, { headers: { 'X-Workspace-ID': side } }))).status).toBe(204);
  });

  it('refuses an admin change that names nothing to change, and a tier change still works beside billing', async () => {
    const nothing = await api.call('PATCH', `/admin/workspaces/${home}`, { body: {} });
    expect(nothing.status).toBe(422);
    const both = await api.call('PATCH', `/admin/workspaces/${home}`, { body: { tier: 'pro', billing_status: 'paid' } });
    expect(both.status).toBe(200);
    expect(both.body.data).toMatchObject({ tier: 'pro', billing_status: 'paid' });
  });

  it('is switched by the admin CLI too: billing --status unpaid, then paid', async () => {
    const unpaid = await runAdmin(api.runner.tableName, ['billing', '--workspace', home, '--status', 'unpaid']);
    expect([unpaid.status, unpaid.stdout]).toEqual([0, expect.stringContaining('its requests answer 402')]);
    expect((await api.call('GET', '/api-keys', as(patKey))).status).toBe(402);
    const paid = await runAdmin(api.runner.tableName, ['billing', '--workspace', home, '--status', 'paid']);
    expect([paid.status, paid.stdout]).toEqual([0, expect.stringContaining('is paid')]);
    expect((await api.call('GET', '/api-keys', as(patKey))).status).toBe(200);
    const wrong = await runAdmin(api.runner.tableName, ['billing', '--workspace', home, '--status', 'late']);
    expect([wrong.status, wrong.stderr]).toEqual([2, expect.stringContaining('--status must be paid or unpaid')]);
  }, 60_000);
});
