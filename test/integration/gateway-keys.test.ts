import { type RecordingGatewayKeys, recordingGatewayKeys } from '#core/adapters/gateway-keys/recording-gateway-keys';
import { createApiKey } from '#core/api-keys/api-keys';
import { authenticate } from '#core/credentials/authenticate';
import type { GatewayKeys } from '#core/ports/gateway-keys';
import { createUser } from '#core/users/users';
import { setWorkspaceTier } from '#core/workspaces/workspace-tier';
import { createWorkspace, deleteWorkspace } from '#core/workspaces/workspaces';
import { type TestDeps, testDeps } from '../support/deps.ts';
import { ownerPrincipal } from '../support/principals.ts';

/** A fresh table and stand-in per test: the budget is one counter per table. */
async function setUp(gatewayKeys: GatewayKeys = recordingGatewayKeys()) {
  const deps = await testDeps({ gatewayKeys });
  const owner = await createUser(deps, { name: 'Ada', email: 'ada@example.com', tier: 'enterprise' });
  const home = await createWorkspace(deps, owner.id, { name: 'Home' });
  return { deps, owner, home, gateway: gatewayKeys as RecordingGatewayKeys };
}
const recordOf = async (deps: TestDeps, id: string) => (await deps.db.entities.workspace.get({ id }).go()).data;
const keysSpent = async (deps: TestDeps) =>
  (await deps.db.entities.counter.get({ name: 'gateway-keys' }).go({ consistent: true })).data?.value;

describe("a workspace's API Gateway key", () => {
  it('is created with the workspace, in its tier’s plan, and stored on its record', async () => {
    const { deps, owner, gateway } = await setUp();
    const workspace = await createWorkspace(deps, owner.id, { name: 'Acme', tier: 'pro' });
    const { gatewayKey } = (await recordOf(deps, workspace.id))!;
    expect(gatewayKey).toEqual({ id: expect.any(String), value: expect.stringMatching(/^\w{40}$/) });
    expect(gateway.calls.at(-1)).toEqual({ call: 'create', workspaceId: workspace.id, tier: 'pro', key: gatewayKey });
    expect(gateway.plans.get(gatewayKey!.id)).toBe('pro');
    expect(workspace).not.toHaveProperty('gatewayKey');
    expect(await keysSpent(deps)).toBe(2);
  });

  it('is removed again, and its place in the budget given back, when the workspace cannot be created', async () => {
    const { deps, owner, gateway } = await setUp();
    await createWorkspace(deps, owner.id, { name: 'Acme', slug: 'acme' });
    await expect(createWorkspace(deps, owner.id, { name: 'Acme again', slug: 'acme' })).rejects.toMatchObject({ status: 409 });
    const [, , failed, removed] = gateway.calls;
    expect(failed).toMatchObject({ call: 'create' });
    expect(removed).toEqual({ call: 'remove', keyId: (failed as { key: { id: string } }).key.id });
    expect(gateway.plans.size).toBe(2);
    expect(await keysSpent(deps)).toBe(2);
  });

  it("moves to the new tier's plan when a platform admin changes the tier, and stays put for the same tier", async () => {
    const { deps, owner, gateway } = await setUp();
    const workspace = await createWorkspace(deps, owner.id, { name: 'Acme', tier: 'starter' });
    const { gatewayKey } = (await recordOf(deps, workspace.id))!;
    await setWorkspaceTier(deps, workspace.id, 'agency');
    await setWorkspaceTier(deps, workspace.id, 'agency');
    expect(gateway.calls.filter((c) => c.call === 'move')).toEqual([
      { call: 'move', keyId: gatewayKey!.id, from: 'starter', to: 'agency' },
    ]);
    expect(gateway.plans.get(gatewayKey!.id)).toBe('agency');
    expect((await recordOf(deps, workspace.id))!.gatewayKey).toEqual(gatewayKey);
  });

  it('keeps the old tier when the move fails, so the change can be sent again', async () => {
    const recording = recordingGatewayKeys();
    const { deps, owner } = await setUp({ ...recording, move: async () => Promise.reject(new Error('API Gateway is down')) });
    const workspace = await createWorkspace(deps, owner.id, { name: 'Acme', tier: 'starter' });
    await expect(setWorkspaceTier(deps, workspace.id, 'pro')).rejects.toThrow('API Gateway is down');
    expect((await recordOf(deps, workspace.id))!.tier).toBe('starter');
  });

  it('is removed after the workspace, and gives its place in the budget back', async () => {
    const { deps, owner, home, gateway } = await setUp();
    const workspace = await createWorkspace(deps, owner.id, { name: 'Acme' });
    const { gatewayKey } = (await recordOf(deps, workspace.id))!;
    await deleteWorkspace(deps, ownerPrincipal(owner.id, home.id), workspace.id, { home: home.id });
    expect(await recordOf(deps, workspace.id)).toBeNull();
    expect(gateway.calls.at(-1)).toEqual({ call: 'remove', keyId: gatewayKey!.id });
    expect(gateway.plans.has(gatewayKey!.id)).toBe(false);
    expect(await keysSpent(deps)).toBe(1);
  });

  it("meters a workspace's credentials under its key", async () => {
    const { deps, owner, home } = await setUp();
    const { key } = await createApiKey(deps, ownerPrincipal(owner.id, home.id, 'enterprise'), home.id, { name: 'k' });
    const principal = await authenticate(deps, { authorization: `Bearer ${key}`, method: 'GET', sourceIp: '::1' });
    expect(principal.usageKey).toBe((await recordOf(deps, home.id))!.gatewayKey!.value);
  });
});

describe('past the key budget', () => {
  it('new workspaces have no key of their own, and their credentials are metered under their tier’s shared key', async () => {
    const { deps, owner, gateway } = await setUp(recordingGatewayKeys({ budget: 1 }));
    const sharer = await createWorkspace(deps, owner.id, { name: 'Sharer', tier: 'business' });
    expect((await recordOf(deps, sharer.id))!.gatewayKey).toBeUndefined();
    expect(gateway.calls.filter((c) => c.call === 'create')).toHaveLength(1);
    const { key } = await createApiKey(deps, ownerPrincipal(owner.id, sharer.id, 'business'), sharer.id, { name: 'k' });
    const principal = await authenticate(deps, { authorization: `Bearer ${key}`, method: 'GET', sourceIp: '::1' });
    expect(principal.usageKey).toBe(gateway.shared.tiers.business);
  });

  it('a sharer follows its new tier to that tier’s shared key without any call, and its delete removes nothing', async () => {
    const { deps, owner, home, gateway } = await setUp(recordingGatewayKeys({ budget: 1 }));
    const sharer = await createWorkspace(deps, owner.id, { name: 'Sharer' });
    const before = gateway.calls.length;
    await setWorkspaceTier(deps, sharer.id, 'pro');
    await deleteWorkspace(deps, ownerPrincipal(owner.id, home.id), sharer.id, { home: home.id });
    expect(gateway.calls.length).toBe(before);
    expect(await keysSpent(deps)).toBe(1);
  });

  it('simultaneous creates never take more keys than the budget', async () => {
    const { deps, owner, gateway } = await setUp(recordingGatewayKeys({ budget: 4 }));
    const created = await Promise.all(Array.from({ length: 8 }, (_, n) => createWorkspace(deps, owner.id, { name: `W${n}` })));
    const withKeys = await Promise.all(created.map(async (w) => (await recordOf(deps, w.id))!.gatewayKey)).then((keys) =>
      keys.filter(Boolean),
    );
    expect(withKeys).toHaveLength(3);
    expect(gateway.plans.size).toBe(4);
    expect(await keysSpent(deps)).toBe(4);
  });

  it('a deleted workspace’s place goes to the next new one', async () => {
    const { deps, owner, home } = await setUp(recordingGatewayKeys({ budget: 2 }));
    const first = await createWorkspace(deps, owner.id, { name: 'First' });
    await deleteWorkspace(deps, ownerPrincipal(owner.id, home.id), first.id, { home: home.id });
    const next = await createWorkspace(deps, owner.id, { name: 'Next' });
    expect((await recordOf(deps, next.id))!.gatewayKey).toBeDefined();
  });

  it('when the region holds no more keys, the workspace shares and its place in the budget is given back', async () => {
    const gateway = recordingGatewayKeys();
    const { deps, owner } = await setUp(gateway);
    gateway.create = async () => undefined;
    const workspace = await createWorkspace(deps, owner.id, { name: 'Acme' });
    expect((await recordOf(deps, workspace.id))!.gatewayKey).toBeUndefined();
    expect(await keysSpent(deps)).toBe(1);
  });

  it('when API Gateway fails, the workspace is not created and its place in the budget is given back', async () => {
    const gateway = recordingGatewayKeys();
    const { deps, owner } = await setUp(gateway);
    gateway.create = async () => Promise.reject(new Error('API Gateway is down'));
    await expect(createWorkspace(deps, owner.id, { name: 'Acme' })).rejects.toThrow('API Gateway is down');
    expect(await keysSpent(deps)).toBe(1);
  });
});
