import { type RecordingGatewayKeys, recordingGatewayKeys } from '#core/adapters/gateway-keys/recording-gateway-keys';
import { type ApiAnswer, startTestApi, type TestApi } from '../support/local-api.ts';

/**
 * The local runner has no usage plans; its stand-in records what the functions ask of API
 * Gateway, and its gateway what each request would be metered under (usageIdentifierKey).
 */
let api: TestApi;
let gateway: RecordingGatewayKeys;
beforeAll(async () => {
  api = await startTestApi();
  gateway = api.runner.gatewayKeys as RecordingGatewayKeys;
});
afterAll(() => api.stop());

const keyOf = (workspaceId: string) => gateway.calls.find((c) => c.call === 'create' && c.workspaceId === workspaceId);
/** How many more requests each usage key is metered for while `act` runs. */
async function meteredDuring(act: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = new Map(api.runner.metered);
  await act();
  return Object.fromEntries(
    [...api.runner.metered].filter(([key, n]) => n !== (before.get(key) ?? 0)).map(([key, n]) => [key, n - (before.get(key) ?? 0)]),
  );
}

describe('usage plans at the edge, through the local runner', () => {
  it('a workspace gets its own key in its tier’s plan; a tier change moves it; deleting the workspace removes it', async () => {
    const created = await api.call('POST', '/workspaces', { body: { name: 'Metered', tier: 'starter' } });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    const creation = keyOf(id);
    expect(creation).toMatchObject({ tier: 'starter', key: { id: expect.any(String) } });
    const keyId = creation!.call === 'create' ? creation!.key.id : '';
    expect(gateway.plans.get(keyId)).toBe('starter');

    const changed = await api.call('PATCH', `/admin/workspaces/${id}`, { body: { tier: 'agency' } });
    expect([changed.status, changed.body.data.tier]).toEqual([200, 'agency']);
    expect(gateway.calls.at(-1)).toEqual({ call: 'move', keyId, from: 'starter', to: 'agency' });
    expect(gateway.plans.get(keyId)).toBe('agency');

    expect((await api.call('DELETE', `/workspaces/${id}`)).status).toBe(204);
    expect(gateway.calls.at(-1)).toEqual({ call: 'remove', keyId });
    expect(gateway.plans.has(keyId)).toBe(false);
  });

  it("meters an accepted credential's request under its home workspace's key", async () => {
    const bootstrapWorkspace = api.runner.bootstrap!.workspaceId;
    const home = keyOf(bootstrapWorkspace);
    const value = home!.call === 'create' ? home!.key.value : '';
    expect(await meteredDuring(() => api.call('GET', `/workspaces/${bootstrapWorkspace}`))).toEqual({ [value]: 1 });
  });

  it('meters a refused credential under the anonymous key, so that the client still gets our 401 envelope', async () => {
    let answer: ApiAnswer | undefined;
    const metered = await meteredDuring(async () => (answer = await api.call('GET', '/workspaces', { key: `sk_live_${'x'.repeat(32)}` })));
    expect(metered).toEqual({ [gateway.shared.anonymous]: 1 });
    expect(answer).toMatchObject({ status: 401, body: { error_code: 'INVALID_API_KEY' } });
    expect(await meteredDuring(() => api.call('GET', '/workspaces', { key: '' }))).toEqual({ [gateway.shared.anonymous]: 1 });
  });

  it('meters nothing on public routes, which require no key', async () => {
    expect(
      await meteredDuring(() =>
        api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email: 'no@example.com', password: 'wrong-password' } }),
      ),
    ).toEqual({});
  });
});

describe('past the key budget, through the local runner', () => {
  let small: TestApi;
  beforeAll(async () => {
    small = await startTestApi({ overrides: { gatewayKeys: recordingGatewayKeys({ budget: 1 }) } });
  });
  afterAll(() => small.stop());

  it("a new workspace gets no key of its own; its credentials are metered under its tier's shared key", async () => {
    const keys = small.runner.gatewayKeys as RecordingGatewayKeys;
    const created = await small.call('POST', '/workspaces', { body: { name: 'Sharer', tier: 'pro' } });
    expect(created.status).toBe(201);
    expect(keys.calls.map((c) => c.call)).toEqual(['create']); // the bootstrap workspace's, which spent the budget
    const issued = await small.call('POST', '/api-keys', { body: { name: 'sharer', workspace_id: created.body.data.id } });
    expect(issued.status).toBe(201);
    const before = small.runner.metered.get(keys.shared.tiers.pro) ?? 0;
    expect((await small.call('GET', '/workspaces', { key: issued.body.data.key })).status).toBe(200);
    expect(small.runner.metered.get(keys.shared.tiers.pro)).toBe(before + 1);
  });
});
