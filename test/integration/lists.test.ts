import { apiKeysOf, issueApiKey, revokeApiKey, rotateApiKey } from '#core/api-keys/api-keys';
import { acceptInvitation, declineInvitation, invitationsOf } from '#core/members/invitations';
import { addMember, membersOf } from '#core/members/members';
import { pruneExpired } from '#core/operations/pruning';
import { issueUserToken, revokeUserToken, userTokensOf } from '#core/users/user-tokens';
import { createUser } from '#core/users/users';
import { createWorkspace, deleteWorkspace, workspacesOf } from '#core/workspaces/workspaces';
import { manualClock, type TestDeps, testDeps } from '../support/deps.ts';
import { listVia } from '../support/lists.ts';
import { ownerPrincipal } from '../support/principals.ts';
import { watchReads } from '../support/read-counter.ts';
import { recordingMailer } from '../support/recording-mailer.ts';

const hour = 3600 * 1000;
const day = 24 * hour;

let deps: TestDeps;
let clock: ReturnType<typeof manualClock>;
let reads: ReturnType<typeof watchReads>;
beforeAll(async () => {
  clock = manualClock(new Date('2026-03-01T00:00:00Z'));
  deps = await testDeps({ clock, mailer: recordingMailer() });
  reads = watchReads(deps.client);
});

let users = 0;
// Enterprise: the lists here hold hundreds of workspaces of one owner, beyond any other tier's `workspaces`.
const newUser = () =>
  createUser(deps, { name: `user ${++users}`, email: `user${users}@example.com`, tier: 'enterprise', emailVerified: true });

const principalOf = ownerPrincipal;
const links = { base: 'https://api.example.com', api: 'https://api.example.com/api/v1' };

/** Runs `n` creations, a few at a time, as concurrent clients would. */
async function times(n: number, create: (i: number) => Promise<unknown>) {
  const lanes = 8;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < n; i += lanes) await create(i);
    }),
  );
}

describe('page one in the default order', () => {
  // 330 workspaces to make first: on a loaded machine that alone has taken over jest's 30 s.
  it('reads only its page: the same calls and items with 300 workspaces as with 30', async () => {
    const [large, small] = [await newUser(), await newUser()];
    await times(300, (i) => createWorkspace(deps, large.id, { name: `large ${i}` }));
    await times(30, (i) => createWorkspace(deps, small.id, { name: `small ${i}` }));

    const costOf = async (userId: number) => {
      reads.clear();
      const page = await listVia('listWorkspaces', workspacesOf(deps, { userId }), 'per_page=10');
      return {
        page,
        calls: reads
          .reads()
          .map((r) => r.command)
          .sort(),
        items: reads.itemsRead(),
      };
    };
    const [atLarge, atSmall] = [await costOf(large.id), await costOf(small.id)];
    expect(atLarge.page.meta).toMatchObject({ total: 300, last_page: 30, from: 1, to: 10 });
    expect(atSmall.page.meta).toMatchObject({ total: 30, last_page: 3, from: 1, to: 10 });
    expect(atLarge.calls).toEqual(atSmall.calls);
    expect(atLarge.calls).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand']);
    // 11 memberships (one to know a page follows), 10 workspaces, 1 count.
    expect(atLarge.items).toBe(22);
    expect(atSmall.items).toBe(22);
  }, 120_000);
});

describe('totals', () => {
  it('follow keys created, revoked, rotated and pruned; a finished key is absent at once and counted until pruned', async () => {
    const user = await newUser();
    const workspace = await createWorkspace(deps, user.id, { name: 'keys' });
    const total = async () => (await listVia('listApiKeys', apiKeysOf(deps, workspace.id))).meta.total;
    // Keys made in one millisecond of the test's clock tie in creation order: compared as sets.
    const listed = async () => (await listVia('listApiKeys', apiKeysOf(deps, workspace.id))).data.map((k) => k.id).sort();

    const [a, b, c] = [
      await issueApiKey(deps, user.id, workspace.id, { name: 'a' }),
      await issueApiKey(deps, user.id, workspace.id, { name: 'b' }),
      await issueApiKey(deps, user.id, workspace.id, { name: 'c', expiresAt: new Date(clock.now().getTime() + hour).toISOString() }),
    ];
    expect(await total()).toBe(3);
    await revokeApiKey(deps, { userId: user.id }, workspace.id, a.id);
    expect(await total()).toBe(2);
    const successor = await rotateApiKey(deps, principalOf(user.id, workspace.id), workspace.id, b.id, 1);
    expect(await total()).toBe(3);
    expect(await listed()).toEqual([b.id, c.id, successor.id].sort());

    clock.advance(2 * hour);
    // b's grace period is over: gone from the list at once, counted until the pruning job runs.
    expect(await listed()).toEqual([c.id, successor.id].sort());
    expect(await total()).toBe(3);
    expect(await pruneExpired(deps)).toMatchObject({ apiKeys: 1 });
    expect(await total()).toBe(2);

    // c expired: listed as expired through its 30 days of retention, then pruned.
    expect((await listVia('listApiKeys', apiKeysOf(deps, workspace.id), 'status=expired')).data.map((k) => k.id)).toEqual([c.id]);
    clock.advance(31 * day);
    expect(await pruneExpired(deps)).toMatchObject({ apiKeys: 1 });
    expect(await listed()).toEqual([successor.id]);
    expect(await total()).toBe(1);
  });

  it('follow invitations sent, renewed, declined, accepted, lapsed and pruned, memberships and a workspace deleted', async () => {
    const [owner, guest] = [await newUser(), await newUser()];
    const [home, first, second] = [
      await createWorkspace(deps, owner.id, { name: 'home' }),
      await createWorkspace(deps, owner.id, { name: 'first' }),
      await createWorkspace(deps, owner.id, { name: 'second' }),
    ];
    const invitations = async () => (await listVia('listInvitations', invitationsOf(deps, guest.id))).meta.total;
    const workspaces = async (userId: number) => (await listVia('listWorkspaces', workspacesOf(deps, { userId }))).meta.total;
    const members = async (workspaceId: string) => (await listVia('listUsers', membersOf(deps, workspaceId))).meta.total;
    const invite = (workspaceId: string) =>
      addMember(deps, { userId: owner.id }, workspaceId, { email: guest.email, role: 'member' }, links);

    await invite(first.id);
    await invite(first.id);
    await invite(second.id);
    expect(await invitations()).toBe(2);
    await declineInvitation(deps, guest.id, second.id);
    expect(await invitations()).toBe(1);
    await acceptInvitation(deps, guest.id, first.id);
    expect([await invitations(), await workspaces(guest.id), await members(first.id)]).toEqual([0, 1, 2]);

    await invite(second.id);
    clock.advance(8 * day);
    expect((await listVia('listInvitations', invitationsOf(deps, guest.id))).data).toEqual([]);
    expect(await pruneExpired(deps)).toMatchObject({ invitations: 1 });
    expect(await invitations()).toBe(0);

    await invite(second.id);
    await deleteWorkspace(deps, { userId: owner.id }, second.id, { home: home.id });
    await deleteWorkspace(deps, { userId: owner.id }, first.id, { home: home.id });
    expect([await invitations(), await workspaces(guest.id), await workspaces(owner.id)]).toEqual([0, 0, 1]);
  });

  it('follow user tokens issued and revoked, listed in id order past token 9', async () => {
    const user = await newUser();
    const workspace = await createWorkspace(deps, user.id, { name: 'tokens' });
    const principal = principalOf(user.id, workspace.id);
    const issued = [];
    for (let i = 0; i < 12; i++) issued.push(await issueUserToken(deps, principal, workspace.id, { name: `t${i}` }));
    await revokeUserToken(deps, principal, issued[3]!.id);
    const page = await listVia('listUserTokens', userTokensOf(deps, user.id));
    expect(page.data.map((t) => t.name)).toEqual(issued.filter((_, i) => i !== 3).map((t) => t.name));
    expect(page.meta.total).toBe(11);
  });
});

describe('cursors and windows over DynamoDB', () => {
  it('walks a list by cursor with no gaps or repeats, newest first', async () => {
    const user = await newUser();
    await times(23, (i) => createWorkspace(deps, user.id, { name: `walk ${i}` }));
    const expected = (await listVia('listWorkspaces', workspacesOf(deps, { userId: user.id }), 'per_page=100')).data
      .map((w) => w.id)
      .reverse();
    const seen: string[] = [];
    let query = 'per_page=5&sort=-created_at';
    for (;;) {
      const page = await listVia('listWorkspaces', workspacesOf(deps, { userId: user.id }), query);
      seen.push(...page.data.map((w) => w.id!));
      if (!page.links.next) break;
      query = new URL(page.links.next).search.slice(1);
    }
    expect(seen).toEqual(expected);
  });

  it('narrows a window to a creation range by the key, and states the window', async () => {
    const user = await newUser();
    const early = await createWorkspace(deps, user.id, { name: 'early' });
    clock.advance(hour);
    const middle = clock.now().toISOString();
    clock.advance(hour);
    const late = await createWorkspace(deps, user.id, { name: 'late' });
    reads.clear();
    const page = await listVia('listWorkspaces', workspacesOf(deps, { userId: user.id }), `created_after=${middle}`);
    expect(page.data.map((w) => w.id)).toEqual([late.id]);
    expect(page.meta).toMatchObject({ total: 1, window: { size: 1000, complete: true } });
    // The range is a key condition: the early workspace's membership is never read.
    expect(reads.reads().find((r) => r.command === 'QueryCommand')?.items).toBe(1);
    expect(
      (await listVia('listWorkspaces', workspacesOf(deps, { userId: user.id }), `created_before=${middle}`)).data.map((w) => w.id),
    ).toEqual([early.id]);
  });
});
