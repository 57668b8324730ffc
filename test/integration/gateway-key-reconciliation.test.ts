import { type RecordingGatewayKeys, recordingGatewayKeys } from '#core/adapters/gateway-keys/recording-gateway-keys';
import { reconcileGatewayKeys, settlingMs } from '#core/operations/gateway-key-reconciliation';
import { telemetry } from '#core/platform/telemetry';
import { GatewayKeyLeftBehind, type GatewayKeys } from '#core/ports/gateway-keys';
import { createUser } from '#core/users/users';
import { createWorkspace, deleteWorkspace } from '#core/workspaces/workspaces';
import { manualClock, type TestDeps, testDeps } from '../support/deps.ts';
import { ownerPrincipal } from '../support/principals.ts';

/**
 * The reconciliation job end to end: the real table (DynamoDB Local) and the recording
 * stand-in for API Gateway, with a clock the test moves past the settling time.
 */

const nothing = { orphansRemoved: 0, keysMoved: 0, sharersGivenKeys: 0, complete: true };

/** A fresh table per test (the budget is one counter per table); `wrap` may put failures in front of the stand-in. */
async function setUp(budget?: number, wrap: (recording: RecordingGatewayKeys) => GatewayKeys = (recording) => recording) {
  const clock = manualClock();
  const gateway = recordingGatewayKeys({ budget, now: clock.now });
  const deps = await testDeps({ gatewayKeys: wrap(gateway), clock });
  const owner = await createUser(deps, { name: 'Ada', email: 'ada@example.com', tier: 'enterprise' });
  const home = await createWorkspace(deps, owner.id, { name: 'Home' });
  const remove = (id: string) => deleteWorkspace(deps, ownerPrincipal(owner.id, home.id), id, { home: home.id });
  return { deps, clock, gateway, owner, home, remove };
}

const recordOf = async (deps: TestDeps, id: string) => (await deps.db.entities.workspace.get({ id }).go({ consistent: true })).data;
const keysSpent = async (deps: TestDeps) =>
  (await deps.db.entities.counter.get({ name: 'gateway-keys' }).go({ consistent: true })).data?.value;
const sharingIds = async (deps: TestDeps) =>
  (await deps.db.entities.workspace.query.bySharing({ sharingBucket: 'gatewayKey' }).go({ pages: 'all' })).data.map((w) => w.id).sort();

/** Every key the stand-in holds is some workspace's, each workspace holds at most one, and the budget counts exactly them. */
async function expectKeysAndRecordsAgree(deps: TestDeps, gateway: RecordingGatewayKeys, workspaceIds: string[]) {
  const keyOf = new Map<string, string>();
  for (const id of workspaceIds) {
    const key = (await recordOf(deps, id))?.gatewayKey;
    if (key) keyOf.set(key.id, id);
  }
  expect([...gateway.plans.keys()].sort()).toEqual([...keyOf.keys()].sort());
  expect(await keysSpent(deps)).toBe(keyOf.size);
}

describe('the gateway key reconciliation job', () => {
  it('deletes a key a failed DeleteApiKey left behind, once it has settled, and gives its place back; a second run changes nothing', async () => {
    let failNextRemove = false;
    const { deps, clock, gateway, owner, home, remove } = await setUp(undefined, (recording) => ({
      ...recording,
      remove: async (key) => {
        if (!failNextRemove) return recording.remove(key);
        failNextRemove = false;
        throw new Error('API Gateway is down');
      },
    }));
    const doomed = await createWorkspace(deps, owner.id, { name: 'Doomed' });
    const { gatewayKey } = (await recordOf(deps, doomed.id))!;
    failNextRemove = true;
    // The workspace is gone whatever API Gateway says: the delete succeeds, and the key is the
    // job's. The warning it logs is caught here, so that it does not read as a failure in `npm test`.
    const warned = jest.spyOn(telemetry().logger, 'warn').mockImplementation(() => {});
    await expect(remove(doomed.id)).resolves.toBeUndefined();
    const warnings = warned.mock.calls.map(([message]) => message);
    warned.mockRestore();
    expect(warnings).toEqual(['A deleted workspace kept its gateway key; the reconciliation job will remove it.']);
    expect(await recordOf(deps, doomed.id)).toBeNull();
    expect(gateway.plans.has(gatewayKey!.id)).toBe(true);
    expect(await keysSpent(deps)).toBe(2);

    // Too young to judge: it could be the key of a workspace being created.
    expect(await reconcileGatewayKeys(deps)).toEqual(nothing);
    expect(gateway.plans.has(gatewayKey!.id)).toBe(true);

    clock.advance(settlingMs);
    expect(await reconcileGatewayKeys(deps)).toEqual({ ...nothing, orphansRemoved: 1 });
    expect(gateway.plans.has(gatewayKey!.id)).toBe(false);
    await expectKeysAndRecordsAgree(deps, gateway, [home.id]);

    const calls = gateway.calls.length;
    expect(await reconcileGatewayKeys(deps)).toEqual(nothing);
    expect(gateway.calls.length).toBe(calls);
  });

  it('gives a workspace that shares a key of its own in its tier’s plan once the budget frees; a second run changes nothing', async () => {
    const { deps, clock, gateway, owner, home, remove } = await setUp(2);
    const taken = await createWorkspace(deps, owner.id, { name: 'Taken' });
    const sharer = await createWorkspace(deps, owner.id, { name: 'Sharer', tier: 'pro' });
    expect((await recordOf(deps, sharer.id))!.gatewayKey).toBeUndefined();
    expect(await sharingIds(deps)).toEqual([sharer.id]);

    clock.advance(settlingMs);
    expect(await reconcileGatewayKeys(deps)).toEqual(nothing);
    expect(gateway.calls.filter((c) => c.call === 'create')).toHaveLength(2);

    await remove(taken.id);
    expect(await reconcileGatewayKeys(deps)).toEqual({ ...nothing, sharersGivenKeys: 1 });
    const { gatewayKey, sharingSince } = (await recordOf(deps, sharer.id))!;
    expect(gatewayKey).toEqual({ id: expect.any(String), value: expect.stringMatching(/^\w{40}$/) });
    expect(sharingSince).toBeUndefined();
    expect(gateway.plans.get(gatewayKey!.id)).toBe('pro');
    expect(await sharingIds(deps)).toEqual([]);
    await expectKeysAndRecordsAgree(deps, gateway, [home.id, sharer.id]);

    clock.advance(settlingMs);
    const calls = gateway.calls.length;
    expect(await reconcileGatewayKeys(deps)).toEqual(nothing);
    expect(gateway.calls.length).toBe(calls);
  });

  it('never passes the budget nor leaves a key behind when two runs and a workspace’s creation race for its places', async () => {
    const { deps, clock, gateway, owner, home, remove } = await setUp(3);
    const [first, second] = [
      await createWorkspace(deps, owner.id, { name: 'First' }),
      await createWorkspace(deps, owner.id, { name: 'Second' }),
    ];
    const sharers = [
      await createWorkspace(deps, owner.id, { name: 'Sharer 1' }),
      await createWorkspace(deps, owner.id, { name: 'Sharer 2' }),
    ];
    await remove(first.id);
    await remove(second.id);
    expect(await keysSpent(deps)).toBe(1);

    // Two places, three takers at once.
    const [one, two, created] = await Promise.all([
      reconcileGatewayKeys(deps),
      reconcileGatewayKeys(deps),
      createWorkspace(deps, owner.id, { name: 'Racing' }),
    ]);
    const everyone = [home.id, ...sharers.map((w) => w.id), created.id];
    await expectKeysAndRecordsAgree(deps, gateway, everyone);
    expect(await keysSpent(deps)).toBeLessThanOrEqual(3);
    expect(one.sharersGivenKeys + two.sharersGivenKeys).toBeLessThanOrEqual(2);
    const stillSharing = await sharingIds(deps);
    expect(stillSharing.length).toBeGreaterThanOrEqual(1);
    for (const id of stillSharing) expect((await recordOf(deps, id))!.gatewayKey).toBeUndefined();

    // Whatever place a lost race left free, the next run fills; nothing is left over to delete.
    clock.advance(settlingMs);
    expect(await reconcileGatewayKeys(deps)).toMatchObject({ orphansRemoved: 0, keysMoved: 0 });
    expect(await keysSpent(deps)).toBe(3);
    expect(await sharingIds(deps)).toHaveLength(1);
    expect(await reconcileGatewayKeys(deps)).toEqual(nothing);
    await expectKeysAndRecordsAgree(deps, gateway, everyone);
  });

  it('leaves alone the key of a workspace being created while it runs', async () => {
    let armed = false;
    let during: Awaited<ReturnType<typeof reconcileGatewayKeys>> | undefined;
    const { deps, clock, gateway, owner, home } = await setUp(undefined, (recording) => ({
      ...recording,
      create: async (workspaceId, tier) => {
        const key = await recording.create(workspaceId, tier);
        // Made, and not yet stored with its workspace: the job runs now.
        if (armed) during = await reconcileGatewayKeys(deps);
        return key;
      },
    }));
    clock.advance(settlingMs);
    armed = true;
    const created = await createWorkspace(deps, owner.id, { name: 'Meanwhile' });
    expect(during).toEqual(nothing);
    await expectKeysAndRecordsAgree(deps, gateway, [home.id, created.id]);
  });

  it('moves a key found outside its tier’s plan into it', async () => {
    const { deps, clock, gateway, home } = await setUp();
    const { gatewayKey, tier } = (await recordOf(deps, home.id))!;
    expect(tier).not.toBe('agency');
    await gateway.move(gatewayKey!, tier, 'agency');
    clock.advance(settlingMs);
    expect(await reconcileGatewayKeys(deps)).toEqual({ ...nothing, keysMoved: 1 });
    expect(gateway.calls.at(-1)).toEqual({ call: 'move', keyId: gatewayKey!.id, from: 'agency', to: tier });
    expect(gateway.plans.get(gatewayKey!.id)).toBe(tier);
    expect(await reconcileGatewayKeys(deps)).toEqual(nothing);
  });

  it('keeps the place of a key a failed create left behind until it deletes that key', async () => {
    let leaveOneBehind = false;
    const { deps, clock, gateway, owner, home } = await setUp(undefined, (recording) => ({
      ...recording,
      create: async (workspaceId, tier) => {
        const key = (await recording.create(workspaceId, tier))!;
        if (!leaveOneBehind) return key;
        throw new GatewayKeyLeftBehind(`${key.id} went into no plan and could not be deleted`);
      },
    }));
    leaveOneBehind = true;
    await expect(createWorkspace(deps, owner.id, { name: 'Failed' })).rejects.toBeInstanceOf(GatewayKeyLeftBehind);
    expect(gateway.plans.size).toBe(2);
    expect(await keysSpent(deps)).toBe(2);
    clock.advance(settlingMs);
    expect(await reconcileGatewayKeys(deps)).toEqual({ ...nothing, orphansRemoved: 1 });
    await expectKeysAndRecordsAgree(deps, gateway, [home.id]);
  });

  it('stops when told to, and the next run goes on', async () => {
    const { deps, clock, gateway, owner, home, remove } = await setUp(2);
    const taken = await createWorkspace(deps, owner.id, { name: 'Taken' });
    const sharer = await createWorkspace(deps, owner.id, { name: 'Sharer' });
    await remove(taken.id);
    clock.advance(settlingMs);
    expect(await reconcileGatewayKeys(deps, { shouldStop: () => true })).toEqual({ ...nothing, complete: false });
    expect(await reconcileGatewayKeys(deps)).toEqual({ ...nothing, sharersGivenKeys: 1 });
    await expectKeysAndRecordsAgree(deps, gateway, [home.id, sharer.id]);
  });
});
