import { createApiKey } from '#core/api-keys/api-keys';
import { authenticate } from '#core/credentials/authenticate';
import { join } from '#core/members/members';
import { slugify } from '#core/platform/slugs';
import { createUser } from '#core/users/users';
import { suspendWorkspace } from '#core/workspaces/suspension';
import { createWorkspace, deleteWorkspace, getWorkspace, updateWorkspace, workspacesOf } from '#core/workspaces/workspaces';
import { depsOnTable, type TestDeps, testDeps } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';
import { listVia } from '../support/lists.ts';
import { ownerPrincipal } from '../support/principals.ts';

let deps: TestDeps;
const authenticateApiKey = (d: TestDeps, key: string) =>
  authenticate(d, { authorization: `Bearer ${key}`, method: 'GET', sourceIp: '::1' });
beforeAll(async () => {
  deps = await testDeps();
});
const workspaceNames = async (userId: number) => (await listVia('listWorkspaces', workspacesOf(deps, { userId }))).data.map((w) => w.name);
const newUser = (name: string) => createUser(deps, { name, email: `${name}@example.com`, tier: 'free' });

describe('workspaces', () => {
  it('creates a workspace with defaults and makes the creator its owner', async () => {
    const user = await newUser('ada');
    const created = await createWorkspace(deps, user.id, { name: 'Analytical Engines' });
    expect(created).toMatchObject({
      name: 'Analytical Engines',
      slug: 'analytical-engines',
      tier: 'free',
      settings: { timezone: 'UTC', locale: 'en' },
    });
    expect(created.id).toMatch(/^wks_[0-9A-Z]{26}$/);
    const { data: member } = await deps.db.entities.membership.get({ workspaceId: created.id, userId: user.id }).go();
    expect(member?.role).toBe('owner');
  });

  it('keeps auto slugs unique per owner but not across owners', async () => {
    const [a, b] = await Promise.all([newUser('bea'), newUser('cy')]);
    const first = await createWorkspace(deps, a.id, { name: 'Shop' });
    const second = await createWorkspace(deps, a.id, { name: 'Shop' });
    const third = await createWorkspace(deps, a.id, { name: 'shop!' });
    const other = await createWorkspace(deps, b.id, { name: 'Shop' });
    expect([first.slug, second.slug, third.slug, other.slug]).toEqual(['shop', 'shop-2', 'shop-3', 'shop']);
  });

  it('refuses an explicit slug the owner already uses with 409 DUPLICATE_RESOURCE', async () => {
    const user = await newUser('dee');
    const first = await createWorkspace(deps, user.id, { name: 'One', slug: 'taken' });
    const error = await errorOf(createWorkspace(deps, user.id, { name: 'Two', slug: 'taken' }));
    expect(error.status).toBe(409);
    expect(error.errorCode).toBe('DUPLICATE_RESOURCE');
    expect(error.extras).toEqual({ conflicting_field: 'slug', existing_resource_id: first.id });
  });

  it('makes slugs URL-friendly', () => {
    expect(slugify('  Café Zürich & Co.  ', 'workspace')).toBe('cafe-zurich-co');
    expect(slugify('!!!', 'workspace')).toBe('workspace');
    expect(slugify('Straße Ørsted Æble', 'workspace')).toBe('strasse-orsted-aeble');
  });

  it('answers 404 for a workspace the user is not a member of, as if it did not exist', async () => {
    const [owner, stranger] = await Promise.all([newUser('eve'), newUser('fay')]);
    const workspace = await createWorkspace(deps, owner.id, { name: 'Private' });
    const error = await errorOf(getWorkspace(deps, { userId: stranger.id }, workspace.id));
    expect(error.status).toBe(404);
    expect(error.extras).toEqual({ resource_type: 'workspace', resource_id: workspace.id });
    expect((await errorOf(updateWorkspace(deps, { userId: stranger.id }, workspace.id, { name: 'Mine' }))).status).toBe(404);
    expect(await workspaceNames(stranger.id)).toEqual([]);
  });

  it('renames and merges settings, moving updated_at', async () => {
    const user = await newUser('gus');
    const workspace = await createWorkspace(deps, user.id, { name: 'Old', settings: { timezone: 'Europe/Berlin' } });
    const updated = await updateWorkspace(deps, { userId: user.id }, workspace.id, { name: 'New', settings: { locale: 'de-DE' } });
    expect(updated).toMatchObject({ name: 'New', slug: 'old', settings: { timezone: 'Europe/Berlin', locale: 'de-DE' } });
    expect(updated.updated_at >= workspace.updated_at).toBe(true);
    expect(await getWorkspace(deps, { userId: user.id }, workspace.id)).toEqual(updated);
  });

  it('lists only the workspaces of the user, in creation order', async () => {
    const user = await newUser('hal');
    const names = ['first', 'second', 'third'];
    for (const name of names) await createWorkspace(deps, user.id, { name });
    expect(await workspaceNames(user.id)).toEqual(names);
  });

  it('deletes a workspace with its keys, which stop working at once', async () => {
    const user = await newUser('ivy');
    const home = await createWorkspace(deps, user.id, { name: 'Home' });
    const doomed = await createWorkspace(deps, user.id, { name: 'Doomed' });
    const principal = ownerPrincipal(user.id, home.id, 'free');
    const key = await createApiKey(deps, principal, doomed.id, { name: 'doomed key' });
    await expect(authenticateApiKey(deps, key.key)).resolves.toMatchObject({ workspaceId: doomed.id });
    await deleteWorkspace(deps, { userId: user.id }, doomed.id, { home: home.id });
    expect((await errorOf(getWorkspace(deps, { userId: user.id }, doomed.id))).status).toBe(404);
    expect((await errorOf(authenticateApiKey(deps, key.key))).errorCode).toBe('INVALID_API_KEY');
    const { data: slugClaim } = await deps.db.entities.workspaceSlug.get({ ownerId: user.id, slug: 'doomed' }).go();
    expect(slugClaim).toBeNull();
    // Its usage counters go too (the key's count among them).
    const { data: counters } = await deps.db.entities.usageCounter.query
      .byOwner({ ownerType: 'Workspace', ownerId: doomed.id, environment: 'live' })
      .go();
    expect(counters).toEqual([]);
  });

  it('treats a workspace being deleted as gone, and finishes a delete that was interrupted when it is sent again', async () => {
    const user = await newUser('ivo');
    const home = await createWorkspace(deps, user.id, { name: 'Home' });
    const doomed = await createWorkspace(deps, user.id, { name: 'Half gone' });
    const key = await createApiKey(deps, ownerPrincipal(user.id, home.id, 'free'), doomed.id, { name: 'in the half gone' });
    // A delete that stopped right after it marked the workspace.
    await deps.db.entities.workspace.patch({ id: doomed.id }).set({ deletingAt: new Date().toISOString() }).go();
    expect((await errorOf(getWorkspace(deps, { userId: user.id }, doomed.id))).status).toBe(404);
    expect((await errorOf(createApiKey(deps, ownerPrincipal(user.id, home.id, 'free'), doomed.id, { name: 'late' }))).status).toBe(404);
    expect((await errorOf(authenticateApiKey(deps, key.key))).errorCode).toBe('INVALID_API_KEY');

    await deleteWorkspace(deps, { userId: user.id }, doomed.id, { home: home.id });
    expect((await deps.db.entities.workspace.get({ id: doomed.id }).go()).data).toBeNull();
    expect((await deps.db.entities.membership.get({ workspaceId: doomed.id, userId: user.id }).go()).data).toBeNull();
    expect((await deps.db.entities.apiKey.query.byWorkspace({ workspaceId: doomed.id }).go()).data).toEqual([]);
  });

  it("refuses to delete the calling credential's home workspace", async () => {
    const user = await newUser('jo');
    const home = await createWorkspace(deps, user.id, { name: 'Home' });
    const error = await errorOf(deleteWorkspace(deps, { userId: user.id }, home.id, { home: home.id }));
    expect(error.status).toBe(409);
    expect(error.errorCode).toBe('STATE_CONFLICT');
  });

  it('lets only owners delete and owners or admins change', async () => {
    const [owner, member] = await Promise.all([newUser('kim'), newUser('lou')]);
    const workspace = await createWorkspace(deps, owner.id, { name: 'Shared' });
    await join(deps, workspace.id, member.id, 'member');
    expect((await getWorkspace(deps, { userId: member.id }, workspace.id)).id).toBe(workspace.id);
    expect((await errorOf(updateWorkspace(deps, { userId: member.id }, workspace.id, { name: 'x' }))).status).toBe(403);
    expect((await errorOf(deleteWorkspace(deps, { userId: member.id }, workspace.id, { home: 'wks_other' }))).status).toBe(403);
  });

  it('answers a non-member 404 for a suspended workspace, never its suspension, even when the membership read is the slow one', async () => {
    const owner = await newUser('suspended-owner');
    const stranger = await newUser('suspended-stranger');
    const { id } = await createWorkspace(deps, owner.id, { name: 'Suspended' });
    await suspendWorkspace(deps, id, 'unpaid invoices');
    const slowMemberships = depsOnTable(deps.tableName, {
      documentClient: (client) => {
        client.middlewareStack.add(
          (next) => async (args) => {
            const key = (args.input as { Key?: { sk?: string } }).Key;
            if (key?.sk?.startsWith('MEMBER#')) await new Promise((resolve) => setTimeout(resolve, 40));
            return next(args);
          },
          { step: 'initialize', name: 'slowMemberships' },
        );
        return client;
      },
    });
    const actor = { userId: stranger.id };
    for (const attempt of [
      () => getWorkspace(slowMemberships, actor, id),
      () => updateWorkspace(slowMemberships, actor, id, { name: 'Mine now' }),
      () => deleteWorkspace(slowMemberships, actor, id, { home: 'wks_elsewhere' }),
    ]) {
      const error = await errorOf(attempt());
      expect([error.status, error.errorCode, JSON.stringify(error)]).toEqual([
        404,
        'RESOURCE_NOT_FOUND',
        expect.not.stringContaining('unpaid'),
      ]);
    }
    slowMemberships.close();
  });
});
