import { issueApiKey } from '#core/api-keys/api-keys';
import { allowanceOf } from '#core/platform/rate-limits';
import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { startTestApiWithDeps, type TestApi } from '../support/local-api.ts';

let api: TestApi & { deps: Deps };
beforeAll(async () => {
  api = await startTestApiWithDeps();
});
afterAll(() => api.stop());

/** A subscriber on `tier` with a workspace of their own and a key with every scope in it. */
async function subscriber(name: string, tier: Tier) {
  const user = await createUser(api.deps, { name, email: `${name}@example.com`, tier });
  const workspace = await createWorkspace(api.deps, user.id, { name: `${name}'s workspace` });
  const { key } = await issueApiKey(api.deps, user.id, workspace.id, { name: 'all', scopes: ['*'] });
  return { user, workspace, key };
}

describe('tiers', () => {
  it("refuses a workspace above its creator's own tier with 422 naming tier; at or below it is created", async () => {
    const free = await subscriber('freya', 'free');
    const refused = await api.call('POST', '/workspaces', { key: free.key, body: { name: 'Big plans', tier: 'enterprise' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.tier).toEqual(["must not be above your own tier, free; a platform admin can change a workspace's tier"]);
    expect((await api.call('POST', '/workspaces', { key: free.key, body: { name: 'Modest', tier: 'free' } })).body.data.tier).toBe('free');

    const starter = await subscriber('stan', 'starter');
    expect((await api.call('POST', '/workspaces', { key: starter.key, body: { name: 'Same', tier: 'starter' } })).status).toBe(201);
    expect((await api.call('POST', '/workspaces', { key: starter.key, body: { name: 'Above', tier: 'pro' } })).status).toBe(422);
    const names = (await api.call('GET', '/workspaces', { key: starter.key })).body.data.map((w: { name: string }) => w.name);
    expect(names).not.toContain('Above');
  });

  it('lets a platform admin create a workspace on any tier', async () => {
    const created = await api.call('POST', '/workspaces', { body: { name: 'Flagship', tier: 'enterprise' } });
    expect([created.status, created.body.data.tier]).toEqual([201, 'enterprise']);
  });

  it("lets only a platform admin change a workspace's tier with PATCH /admin/workspaces/{id}; new keys there count at the new tier, and no key above it", async () => {
    const free = await subscriber('fred', 'free');
    const path = `/admin/workspaces/${free.workspace.id}`;
    const byOwner = await api.call('PATCH', path, { key: free.key, body: { tier: 'enterprise' } });
    expect([byOwner.status, byOwner.body.error]).toEqual([403, 'access_denied']);

    const changed = await api.call('PATCH', path, { body: { tier: 'business' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: free.workspace.id, tier: 'business', suspended_at: null });
    expect((await api.call('GET', `/workspaces/${free.workspace.id}`, { key: free.key })).body.data.tier).toBe('business');
    const key = await issueApiKey(api.deps, free.user.id, free.workspace.id, { name: 'after the upgrade' });
    expect(key.rate_limit_tier).toBe('business');
    const used = await api.call('GET', '/workspaces', { key: key.key });
    expect(used.headers.get('x-ratelimit-limit')).toBe(String(allowanceOf('business', 'live').limit));

    expect((await api.call('PATCH', path, { body: { tier: 'free' } })).body.data.tier).toBe('free');
    const lowered = await api.call('GET', '/workspaces', { key: key.key });
    expect(lowered.headers.get('x-ratelimit-limit')).toBe(String(allowanceOf('free', 'live').limit));
  });

  it('answers mistakes in the admin change with 422 or 404 in the envelope', async () => {
    const { workspace } = await subscriber('fiona', 'free');
    for (const body of [{}, { tier: 'platinum' }, { tier: 'pro', name: 'extra' }]) {
      const answer = await api.call('PATCH', `/admin/workspaces/${workspace.id}`, { body });
      expect([JSON.stringify(body), answer.status, answer.body.error]).toEqual([JSON.stringify(body), 422, 'validation_failed']);
    }
    const unknown = await api.call('PATCH', '/admin/workspaces/wks_01HZZZZZZZZZZZZZZZZZZZZZZZ', { body: { tier: 'pro' } });
    expect(unknown.status).toBe(404);
  });
});
