import { defaultNamespaceId } from '#core/namespaces/ids';
import { tiers } from '#core/platform/tiers';
import { registerVerified } from '../support/accounts.ts';
import { runAdmin } from '../support/admin-cli.ts';
import { manualClock } from '../support/deps.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential } from '../support/sessions.ts';

const clock = manualClock(new Date());
let api: TestApi;
/** B: a registered account with an API key in its personal workspace, raised to pro so the frozen clock's minute holds the test's requests. */
const B = {} as { key: string; session: Credential; userId: number; workspaceId: string; namespaceId: string; ownNamespaceId: string };
const hour = 60 * 60 * 1000;
const pro = tiers.pro.entitlements;

beforeAll(async () => {
  api = await startTestApi({ overrides: { clock } });
  ({ userId: B.userId, session: B.session } = await registerVerified(api, {
    name: 'Bea',
    email: 'bea@example.com',
    password: 'bea password',
  }));
  const key = await api.call('POST', '/api-keys', as(B.session, { body: { name: 'bea', scopes: ['*'] } }));
  ({ key: B.key, workspace_id: B.workspaceId } = key.body.data);
  expect((await api.call('PATCH', `/admin/workspaces/${B.workspaceId}`, { body: { tier: 'pro' } })).status).toBe(200);
  B.namespaceId = defaultNamespaceId(B.workspaceId);
});
afterAll(() => api.stop());

const list = (query = '') => api.call('GET', `/namespaces${query}`, { key: B.key });
const namespace = (id: string, key = B.key) => api.call('GET', `/namespaces/${id}`, { key });
const check = (id: string, body: unknown) => api.call('POST', `/namespaces/${id}/entitlements/check`, { key: B.key, body });
const grant = (id: string, body: unknown, key?: string) => api.call('POST', `/admin/namespaces/${id}/packages`, { key, body });

describe('namespaces', () => {
  it("lists the user's own namespace and the workspace's default one, with each filter", async () => {
    const all = await list();
    expect(all.status).toBe(200);
    // Both were made in the same millisecond of the test's clock: their ULIDs' random parts order them.
    const own = all.body.data.find((n: { owner_type: string }) => n.owner_type === 'User');
    expect(own).toMatchObject({
      owner_id: B.userId,
      workspace_id: null,
      name: 'Personal',
      slug: 'personal',
      is_default: true,
      is_active: true,
    });
    const workspaceNamespace = expect.objectContaining({
      id: B.namespaceId,
      owner_type: 'Workspace',
      owner_id: B.workspaceId,
      workspace_id: B.workspaceId,
      name: "Bea's workspace",
    });
    expect(all.body.data).toEqual(own.id < B.namespaceId ? [own, workspaceNamespace] : [workspaceNamespace, own]);
    expect(own.uuid).toMatch(/^[0-9a-f-]{36}$/);
    B.ownNamespaceId = own.id;
    const inOrder = [B.ownNamespaceId, B.namespaceId].sort();

    const ids = async (query: string) => (await list(query)).body.data.map((n: { id: string }) => n.id);
    expect(await ids('?owner_type=User')).toEqual([B.ownNamespaceId]);
    expect(await ids('?owner_type=Workspace')).toEqual([B.namespaceId]);
    expect(await ids(`?workspace_id=${B.workspaceId}`)).toEqual([B.namespaceId]);
    expect(await ids('?is_active=true')).toEqual(inOrder);
    expect(await ids('?is_active=false')).toEqual([]);
    expect((await list('?fields=slug&sort=-created_at')).body.data.map((n: object) => Object.keys(n).sort())).toEqual([
      ['id', 'slug'],
      ['id', 'slug'],
    ]);
    expect(await ids('?sort=-created_at')).toEqual([...inOrder].reverse());
    for (const bad of ['?owner_type=Robot', '?is_active=yes', '?color=red', '?sort=uuid']) expect((await list(bad)).status).toBe(422);
  });

  it('shows a namespace with its packages and where each feature stands', async () => {
    const shown = await namespace(B.namespaceId);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ id: B.namespaceId, packages: [] });
    expect(shown.body.data.entitlements.api_keys).toMatchObject({ used: 1, limit: pro.api_keys, unit: 'keys' });
    expect(shown.body.data.entitlements.api_calls).toMatchObject({ limit: pro.api_calls, unit: 'requests', reset_at: expect.any(String) });
    // A user's own namespace stands at the user's own tier.
    const own = await namespace(B.ownNamespaceId);
    expect(own.body.data.entitlements.webhooks).toMatchObject({ used: 0, limit: tiers.free.entitlements.webhooks });
  });

  it('checks an entitlement in a namespace', async () => {
    expect((await check(B.namespaceId, { feature: 'api_keys' })).body).toMatchObject({
      allowed: true,
      feature: 'api_keys',
      current_usage: 1,
      limit: pro.api_keys,
    });
    const denied = await check(B.namespaceId, { feature: 'api_keys', quantity: pro.api_keys });
    expect(denied.body).toMatchObject({ allowed: false, reason: 'LIMIT_EXCEEDED', upgrade_url: expect.any(String) });
    expect((await check(B.namespaceId, { feature: 'teleports' })).status).toBe(422);
    expect((await check(B.namespaceId, { feature: 'posts', quantity: 0 })).status).toBe(422);
  });

  it("answers another tenant's namespace with 404, and 403 NAMESPACE_ACCESS_DENIED as the namespace context, as for one that does not exist", async () => {
    const theirs = defaultNamespaceId(api.runner.bootstrap!.workspaceId);
    for (const id of [theirs, 'ns_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      for (const answer of [await namespace(id), await check(id, { feature: 'posts' })]) {
        expect([answer.status, answer.body.error_code, answer.body.resource_type]).toEqual([404, 'RESOURCE_NOT_FOUND', 'namespace']);
      }
      const header = await api.call('GET', '/entitlements/summary', { key: B.key, headers: { 'X-Namespace-ID': id } });
      expect([header.status, header.body.error_code]).toEqual([403, 'NAMESPACE_ACCESS_DENIED']);
      const query = await api.call('GET', `/entitlements/check?feature=posts&namespace_id=${id}`, { key: B.key });
      expect([query.status, query.body.error_code]).toEqual([403, 'NAMESPACE_ACCESS_DENIED']);
    }
    const own = await api.call('GET', '/entitlements/summary', { key: B.key, headers: { 'X-Namespace-ID': B.ownNamespaceId } });
    expect([own.status, own.body.data.namespace_id]).toEqual([200, B.ownNamespaceId]);
  });
});

describe('packages', () => {
  it('raise a namespace’s limits when a platform admin grants them, and count as absent once expired', async () => {
    const expiresAt = new Date(clock.now().getTime() + hour).toISOString();
    const granted = await grant(B.namespaceId, { name: 'Key boost', entitlements: { api_keys: 100 }, expires_at: expiresAt });
    expect(granted.status).toBe(201);
    expect(granted.body.data).toMatchObject({
      id: expect.stringMatching(/^pkg_/),
      namespace_id: B.namespaceId,
      name: 'Key boost',
      expires_at: expiresAt,
    });

    const raised = (await namespace(B.namespaceId)).body.data;
    expect(raised.entitlements.api_keys.limit).toBe(pro.api_keys + 100);
    expect(raised.packages).toEqual([expect.objectContaining({ id: granted.body.data.id, name: 'Key boost', expires_at: expiresAt })]);
    expect((await check(B.namespaceId, { feature: 'api_keys', quantity: pro.api_keys })).body.allowed).toBe(true);

    clock.advance(2 * hour);
    const lapsed = (await namespace(B.namespaceId)).body.data;
    expect([lapsed.packages, lapsed.entitlements.api_keys.limit]).toEqual([[], pro.api_keys]);
    expect((await check(B.namespaceId, { feature: 'api_keys', quantity: pro.api_keys })).body.allowed).toBe(false);
    expect((await api.call('DELETE', `/admin/namespaces/${B.namespaceId}/packages/${granted.body.data.id}`)).status).toBe(404);
  });

  it('are revoked at once, and only platform admins grant or revoke them', async () => {
    const granted = await grant(B.namespaceId, { name: 'Webhooks', entitlements: { webhooks: 5 } });
    expect(granted.body.data.expires_at).toBeNull();
    expect((await namespace(B.namespaceId)).body.data.entitlements.webhooks.limit).toBe(pro.webhooks + 5);
    const path = `/admin/namespaces/${B.namespaceId}/packages/${granted.body.data.id}`;
    expect((await api.call('DELETE', path, { key: B.key })).status).toBe(403);
    expect((await grant(B.namespaceId, { name: 'Self-service', entitlements: { webhooks: 5 } }, B.key)).status).toBe(403);
    expect((await api.call('DELETE', path)).status).toBe(204);
    expect((await namespace(B.namespaceId)).body.data.entitlements.webhooks.limit).toBe(pro.webhooks);
  });

  it('refuse unknown features, non-positive amounts and past expiries (422), and unknown namespaces (404)', async () => {
    const refused = await grant(B.namespaceId, { name: 'Odd', entitlements: { teleports: 1 } });
    expect([refused.status, refused.body.error_code]).toEqual([422, 'VALIDATION_FAILED']);
    expect((await grant(B.namespaceId, { name: 'Odd', entitlements: { posts: 0 } })).status).toBe(422);
    expect((await grant(B.namespaceId, { name: 'Odd', entitlements: {} })).status).toBe(422);
    expect((await grant(B.namespaceId, { name: 'Odd', entitlements: { posts: 1 }, expires_at: '2001-01-01T00:00:00Z' })).status).toBe(422);
    expect((await grant('ns_01ARZ3NDEKTSV4RRFFQ69G5FAV', { name: 'Lost', entitlements: { posts: 1 } })).status).toBe(404);
  });

  it('are granted and revoked with the admin CLI', async () => {
    const table = api.runner.tableName;
    const granted = await runAdmin(table, [
      'package',
      'grant',
      '--namespace',
      B.namespaceId,
      '--name',
      'CLI boost',
      '--entitlement',
      'posts=250',
      '--entitlement',
      'storage=1000',
    ]);
    expect([granted.status, granted.stderr.trim().split('\n').at(-1)]).toEqual([0, expect.stringContaining('admin: table')]);
    const packageId = /Package (pkg_\S+)/.exec(granted.stdout)?.[1];
    expect(granted.stdout).toContain(`granted to ${B.namespaceId}: posts +250, storage +1000; no expiry.`);
    const shown = (await namespace(B.namespaceId)).body.data;
    expect(shown.entitlements.posts.limit).toBe(pro.posts + 250);
    expect(shown.packages.map((p: { id: string }) => p.id)).toEqual([packageId]);

    const unknown = await runAdmin(table, [
      'package',
      'grant',
      '--namespace',
      B.namespaceId,
      '--name',
      'x',
      '--entitlement',
      'teleports=1',
    ]);
    expect([unknown.status, unknown.stderr]).toEqual([2, expect.stringContaining('unknown feature teleports')]);

    const revoked = await runAdmin(table, ['package', 'revoke', '--namespace', B.namespaceId, '--package', packageId!]);
    expect([revoked.status, revoked.stdout.trim()]).toEqual([0, `Package ${packageId} of ${B.namespaceId} revoked.`]);
    expect((await namespace(B.namespaceId)).body.data.entitlements.posts.limit).toBe(pro.posts);
  });
});
