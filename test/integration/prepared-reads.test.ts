import { defaultNamespaceId } from '#core/namespaces/ids';
import type { Database } from '#core/store/database';
import { itemByKey, prepareTransactGet } from '#core/store/prepared-reads';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { type TestDeps, testDeps } from '../support/deps.ts';

/** Reads whose params are built once answer exactly what ElectroDB's own reads answer. */
describe('prepared reads', () => {
  let deps: TestDeps;
  let workspaceId: string;
  let userId: number;

  beforeAll(async () => {
    deps = await testDeps();
    userId = (await createUser(deps, { name: 'Ada', email: 'ada@example.com', tier: 'pro' })).id;
    workspaceId = (await createWorkspace(deps, userId, { name: 'Acme' })).id;
  });
  afterAll(() => deps.close());

  it('read an item by its key as ElectroDB reads it, and nothing for a key with no item', async () => {
    for (const id of [workspaceId, 'wks_01J00000000000000000000000']) {
      const { data } = await deps.db.entities.workspace.get({ id }).go();
      expect(await itemByKey(deps.db, 'workspace', { id })).toEqual(data);
      // The second read sends the params kept from the first.
      expect(await itemByKey(deps.db, 'workspace', { id })).toEqual(data);
    }
    expect(await itemByKey(deps.db, 'workspace', { id: workspaceId })).toMatchObject({ id: workspaceId, name: 'Acme' });
  });

  it('read several items together as an ElectroDB transaction reads them, missing ones as null', async () => {
    const build = ({ workspace, membership, namespace }: Parameters<Parameters<Database['transaction']['get']>[0]>[0]) => [
      workspace.get({ id: workspaceId }).commit(),
      membership.get({ workspaceId, userId }).commit(),
      namespace.get({ id: defaultNamespaceId(workspaceId) }).commit(),
      membership.get({ workspaceId, userId: userId + 1 }).commit(),
    ];
    const expected = await deps.db.transaction.get(build).go();
    const read = prepareTransactGet(deps.db, build);
    const answered = await read.go();
    expect(answered.canceled).toBe(false);
    // ElectroDB types a mixed transaction's entries as never; each is `{ item, ... }`.
    const itemsOf = (data: readonly unknown[]) => data.map((entry) => (entry as { item: unknown } | null)?.item ?? null);
    expect(itemsOf(answered.data)).toEqual(itemsOf(expected.data));
    expect(answered.data.map((entry) => entry.item === null)).toEqual([false, false, false, true]);
    expect((await read.go()).data).toEqual(answered.data);
  });

  it('answer a transactional read that a write in flight cancelled as cancelled, and throw any other failure', async () => {
    const build = ({ workspace }: Parameters<Parameters<Database['transaction']['get']>[0]>[0]) => [
      workspace.get({ id: workspaceId }).commit(),
    ];
    const failingWith = (error: Error) =>
      ({ ...deps.db, table: { ...deps.db.table, client: { send: async () => Promise.reject(error) } } }) as unknown as Database;
    const cancelled = Object.assign(new Error('Transaction cancelled'), { CancellationReasons: [{ Code: 'TransactionConflict' }] });
    expect(await prepareTransactGet(failingWith(cancelled), build).go()).toEqual({ canceled: true, data: [] });
    await expect(prepareTransactGet(failingWith(new Error('the table is gone')), build).go()).rejects.toThrow('the table is gone');
  });
});
