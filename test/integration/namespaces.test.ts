import { standingsOf } from '#core/entitlements/entitlements';
import { tierLimit } from '#core/entitlements/features';
import { join } from '#core/members/members';
import { resolveNamespace } from '#core/namespaces/access';
import { defaultNamespaceId } from '#core/namespaces/ids';
import { namespacesOf } from '#core/namespaces/list';
import { grantPackage, maxPackagesInForce, revokePackage } from '#core/namespaces/packages';
import { entitlementScopeOf } from '#core/namespaces/scope';
import { createUser } from '#core/users/users';
import { createWorkspace, deleteWorkspace } from '#core/workspaces/workspaces';
import { manualClock, type TestDeps, testDeps } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';
import { listVia } from '../support/lists.ts';
import { ownerPrincipal } from '../support/principals.ts';

let deps: TestDeps;
const clock = manualClock(new Date('2026-03-10T12:00:00Z'));
beforeAll(async () => {
  deps = await testDeps({ clock });
});
afterAll(() => deps.close());

let serial = 0;
const newUser = (name: string) => createUser(deps, { name, email: `${name}-${++serial}@example.com`, tier: 'free' });
const namespaceOf = async (id: string) => (await deps.db.entities.namespace.get({ id }).go({ consistent: true })).data;
const ownNamespaces = async (userId: number) =>
  (await deps.db.entities.namespace.query.byOwner({ ownerType: 'User', ownerId: String(userId) }).go()).data;

/** A user with a workspace of their own, and the principal of a key in it. */
async function tenant(name: string) {
  const user = await newUser(name);
  const workspace = await createWorkspace(deps, user.id, { name: `${name} works` });
  return { user, workspace, principal: ownerPrincipal(user.id, workspace.id) };
}

describe('default namespaces', () => {
  it('are created with each user, in the same transaction', async () => {
    const user = await newUser('ada');
    const own = await ownNamespaces(user.id);
    expect(own).toEqual([
      expect.objectContaining({
        name: 'Personal',
        slug: 'personal',
        ownerType: 'User',
        ownerId: String(user.id),
        isDefault: true,
        isActive: true,
        packages: [],
      }),
    ]);
    expect(own[0]!.id).toMatch(/^ns_[0-9A-Z]{26}$/);
    expect(own[0]!.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(own[0]!.workspaceId).toBeUndefined();
  });

  it('are created with each workspace, sharing its ULID, and deleted with it', async () => {
    const { user, workspace } = await tenant('grace');
    const other = await createWorkspace(deps, user.id, { name: 'Compilers', slug: 'cobol' });
    const namespace = await namespaceOf(defaultNamespaceId(other.id));
    expect(namespace).toMatchObject({
      id: `ns_${other.id.slice(4)}`,
      name: 'Compilers',
      slug: 'cobol',
      ownerType: 'Workspace',
      ownerId: other.id,
      workspaceId: other.id,
      isDefault: true,
    });

    await deleteWorkspace(deps, ownerPrincipal(user.id, workspace.id), other.id, { home: workspace.id });
    expect(await namespaceOf(defaultNamespaceId(other.id))).toBeNull();
    expect(await namespaceOf(defaultNamespaceId(workspace.id))).not.toBeNull();
  });
});

describe('the namespaces a credential may use', () => {
  it("are the user's own and their workspaces' default namespaces, in creation order, paged by cursor", async () => {
    const owner = await tenant('owner');
    const member = await tenant('member');
    await join(deps, owner.workspace.id, member.user.id, 'member');
    const second = await createWorkspace(deps, member.user.id, { name: 'Second' });
    const [personal] = await ownNamespaces(member.user.id);
    const expected = [
      personal!.id,
      defaultNamespaceId(owner.workspace.id),
      defaultNamespaceId(member.workspace.id),
      defaultNamespaceId(second.id),
    ].sort();

    const all = await listVia('listNamespaces', namespacesOf(deps, member.principal));
    expect(all.data.map((n) => n.id)).toEqual(expected);
    expect(all.meta.total).toBe(4);

    // One at a time by cursor, both ways: the user's own namespace merged in at its place.
    for (const [query, order] of [
      ['per_page=1', expected],
      ['per_page=1&sort=-created_at', [...expected].reverse()],
    ] as const) {
      const seen: string[] = [];
      let page = await listVia('listNamespaces', namespacesOf(deps, member.principal), query);
      seen.push(...page.data.map((n) => n.id!));
      while (page.links.next) {
        page = await listVia('listNamespaces', namespacesOf(deps, member.principal), new URL(page.links.next).search.slice(1));
        seen.push(...page.data.map((n) => n.id!));
      }
      expect(seen).toEqual(order);
    }

    const users = await listVia('listNamespaces', namespacesOf(deps, member.principal), 'owner_type=User');
    expect(users.data).toEqual([
      expect.objectContaining({ id: personal!.id, owner_type: 'User', owner_id: member.user.id, workspace_id: null }),
    ]);
    const inactive = await listVia('listNamespaces', namespacesOf(deps, member.principal), 'is_active=false');
    expect(inactive.data).toEqual([]);
    const oneWorkspace = await listVia('listNamespaces', namespacesOf(deps, member.principal, { workspaceId: owner.workspace.id }));
    expect(oneWorkspace.data.map((n) => n.id)).toEqual([defaultNamespaceId(owner.workspace.id)]);
    // A credential bound to one workspace (an OAuth token) sees that one alone.
    const bound = await listVia('listNamespaces', namespacesOf(deps, { ...member.principal, limits: { workspaceId: second.id } }));
    expect(bound.data.map((n) => n.id)).toEqual([defaultNamespaceId(second.id)]);
  });
});

describe('the namespace context', () => {
  it("is the acting workspace's default namespace unless one is named", async () => {
    const { workspace, principal } = await tenant('context');
    const other = await createWorkspace(deps, principal.userId, { name: 'Other' });
    expect((await resolveNamespace(deps, principal, workspace.id)).id).toBe(defaultNamespaceId(workspace.id));
    expect((await resolveNamespace(deps, principal, other.id)).id).toBe(defaultNamespaceId(other.id));
    const [own] = await ownNamespaces(principal.userId);
    expect((await resolveNamespace(deps, principal, workspace.id, own!.id.toLowerCase())).id).toBe(own!.id);
    expect((await resolveNamespace(deps, principal, workspace.id, defaultNamespaceId(other.id))).ownerId).toBe(other.id);
  });

  it('refuses a namespace the credential may not use with 403 NAMESPACE_ACCESS_DENIED, whether or not it exists', async () => {
    const mine = await tenant('mine');
    const theirs = await tenant('theirs');
    const [theirOwn] = await ownNamespaces(theirs.user.id);
    for (const named of [defaultNamespaceId(theirs.workspace.id), theirOwn!.id, 'ns_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'wks_nonsense']) {
      const error = await errorOf(resolveNamespace(deps, mine.principal, mine.workspace.id, named));
      expect({ named, status: error.status, code: error.errorCode }).toEqual({ named, status: 403, code: 'NAMESPACE_ACCESS_DENIED' });
    }
    // An OAuth token acts for its workspace alone: not even its user's own namespace.
    const [myOwn] = await ownNamespaces(mine.user.id);
    const bound = { ...mine.principal, limits: { workspaceId: mine.workspace.id } };
    expect((await errorOf(resolveNamespace(deps, bound, mine.workspace.id, myOwn!.id))).errorCode).toBe('NAMESPACE_ACCESS_DENIED');
  });

  it('refuses an inactive namespace, saying so', async () => {
    const { workspace, principal } = await tenant('inactive');
    const id = defaultNamespaceId(workspace.id);
    await deps.db.entities.namespace.patch({ id }).set({ isActive: false }).go();
    for (const named of [undefined, id]) {
      const error = await errorOf(resolveNamespace(deps, principal, workspace.id, named));
      expect([error.status, error.errorCode, error.message]).toEqual([403, 'NAMESPACE_ACCESS_DENIED', expect.stringContaining('inactive')]);
    }
  });
});

describe('packages', () => {
  const apiCallsLimit = async (namespaceId: string) => {
    const namespace = (await namespaceOf(namespaceId))!;
    return (await standingsOf(deps, entitlementScopeOf(namespace, 'live', 'free'))).api_calls.limit;
  };

  it('raise the limits until they expire, and count as absent from then on', async () => {
    const { workspace } = await tenant('packaged');
    const id = defaultNamespaceId(workspace.id);
    const base = tierLimit('free', 'api_calls')!;
    const lasting = await grantPackage(deps, id, { name: 'Boost', entitlements: { api_calls: 5_000 } });
    expect(lasting).toMatchObject({ id: expect.stringMatching(/^pkg_[0-9A-Z]{26}$/), namespace_id: id, expires_at: null });
    const brief = await grantPackage(deps, id, {
      name: 'Trial',
      entitlements: { api_calls: 1_000, posts: 10 },
      expiresAt: '2026-03-10T13:00:00+00:00',
    });
    expect(brief.expires_at).toBe('2026-03-10T13:00:00.000Z');
    expect(await apiCallsLimit(id)).toBe(base + 6_000);

    clock.advance(60 * 60 * 1000);
    expect(await apiCallsLimit(id)).toBe(base + 5_000);
    expect((await errorOf(revokePackage(deps, id, brief.id))).status).toBe(404);
    // Still on the item until the next change, which drops it.
    expect((await namespaceOf(id))!.packages).toHaveLength(2);
    await grantPackage(deps, id, { name: 'More', entitlements: { webhooks: 3 } });
    expect((await namespaceOf(id))!.packages.map((p) => p.name)).toEqual(['Boost', 'More']);

    await revokePackage(deps, id, lasting.id);
    expect(await apiCallsLimit(id)).toBe(base);
  });

  it('refuse a past expiry, an unknown namespace, and more than the bound in force', async () => {
    const { workspace } = await tenant('bounded');
    const id = defaultNamespaceId(workspace.id);
    expect(
      (await errorOf(grantPackage(deps, id, { name: 'Late', entitlements: { posts: 1 }, expiresAt: '2020-01-01T00:00:00Z' }))).status,
    ).toBe(422);
    expect((await errorOf(grantPackage(deps, 'ns_01ARZ3NDEKTSV4RRFFQ69G5FAV', { name: 'Lost', entitlements: { posts: 1 } }))).status).toBe(
      404,
    );
    // Concurrent grants each keep the others' (a conditional write on the list, retried).
    await Promise.all(Array.from({ length: 5 }, (_, n) => grantPackage(deps, id, { name: `P${n}`, entitlements: { posts: 1 } })));
    expect((await namespaceOf(id))!.packages).toHaveLength(5);
    for (let n = 5; n < maxPackagesInForce; n++) await grantPackage(deps, id, { name: `P${n}`, entitlements: { posts: 1 } });
    expect((await namespaceOf(id))!.packages).toHaveLength(maxPackagesInForce);
    const full = await errorOf(grantPackage(deps, id, { name: 'One too many', entitlements: { posts: 1 } }));
    expect([full.status, full.errorCode]).toEqual([409, 'STATE_CONFLICT']);
  });
});
