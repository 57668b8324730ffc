import type { EntityItem } from 'electrodb';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { AccessDenied, DuplicateResource, NotFound, StateConflict } from '../errors.ts';
import { commitOrThrow, isConditionFailure } from '../store/conditions.ts';
import type { Database } from '../store/database.ts';
import type { Tier } from '../tiers.ts';

export type UserItem = EntityItem<Database['entities']['user']>;

export function userView(item: UserItem) {
  return {
    id: item.id,
    name: item.name,
    email: item.email,
    tier: item.tier,
    email_verified_at: item.emailVerifiedAt ?? null,
    created_at: item.createdAt,
  };
}

/** Emails are compared and stored case-insensitively. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The next integer id of a kind (users, user tokens), from an atomic counter. */
export async function nextId(deps: Deps, counter: string): Promise<number> {
  const { data } = await deps.db.entities.counter.update({ name: counter }).add({ value: 1 }).go({ response: 'all_new' });
  if (typeof data.value !== 'number') throw new Error(`counter ${counter} returned no value`);
  return data.value;
}

export interface NewUser {
  name: string;
  email: string;
  tier: Tier;
  password?: string;
  platformAdmin?: boolean;
  managedByWorkspaceId?: string;
}

/** Creates a user and claims its email in one transaction: a taken email is a 409. */
export async function createUser(deps: Deps, input: NewUser): Promise<UserItem> {
  const now = isoNow(deps.clock);
  const email = normalizeEmail(input.email);
  const item: UserItem = {
    id: await nextId(deps, 'user'),
    name: input.name,
    email,
    tier: input.tier,
    platformAdmin: input.platformAdmin ?? false,
    managedByWorkspaceId: input.managedByWorkspaceId,
    passwordHash: input.password ? await deps.hasher.hash(input.password) : undefined,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await commitOrThrow(() =>
      deps.db.transaction
        .write(({ user, userEmail }) => [userEmail.create({ email, userId: item.id }).commit(), user.create(item).commit()])
        .go(),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // No existing_resource_id: it would tell anyone whose account an email belongs to.
    throw new DuplicateResource('user', 'email');
  }
  return item;
}

export async function findUserIdByEmail(deps: Deps, email: string): Promise<number | undefined> {
  const { data } = await deps.db.entities.userEmail.get({ email: normalizeEmail(email) }).go({ consistent: true });
  return data?.userId;
}

export async function loadUser(deps: Deps, id: number): Promise<UserItem> {
  const { data } = await deps.db.entities.user.get({ id }).go();
  if (!data) throw new NotFound('user', String(id));
  return data;
}

/** True before anyone has been created: bootstrap happens only then. */
export async function noUsersYet(deps: Deps): Promise<boolean> {
  const { data } = await deps.db.entities.counter.get({ name: 'user' }).go({ consistent: true });
  return !data;
}

/**
 * Workspace ids of a user, oldest membership first: a user's own first workspace stays
 * their default even if someone later adds them to an older one.
 */
export async function workspaceIdsOf(deps: Deps, userId: number): Promise<string[]> {
  const { data } = await deps.db.entities.membership.query.byUser({ userId }).go({ pages: 'all' });
  return data.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((m) => m.workspaceId);
}

/**
 * May `actorId` change `targetId`? Themselves; or, for a user their workspace created
 * (POST /users), its owners, and its admins where the user is a plain member. Nobody else
 * can touch an account, so adding someone to a workspace never hands over their login. A
 * user the actor shares no workspace with is 404, as if unknown.
 */
async function requireCanManage(deps: Deps, actorId: number, target: UserItem): Promise<void> {
  if (actorId === target.id) return;
  const [mine, theirs] = await Promise.all([
    deps.db.entities.membership.query.byUser({ userId: actorId }).go({ pages: 'all' }),
    deps.db.entities.membership.query.byUser({ userId: target.id }).go({ pages: 'all' }),
  ]);
  const sharedIds = new Set(theirs.data.map((m) => m.workspaceId));
  if (!mine.data.some((m) => sharedIds.has(m.workspaceId))) throw new NotFound('user', String(target.id));
  const home = target.managedByWorkspaceId;
  const actorRole = mine.data.find((m) => m.workspaceId === home)?.role;
  const targetRole = theirs.data.find((m) => m.workspaceId === home)?.role;
  const allowed = actorRole === 'owner' || (actorRole === 'admin' && targetRole === 'member');
  if (!home || !allowed) {
    throw new AccessDenied('Only the user may change this account, or an owner (or an admin, for members) of the workspace that created it.');
  }
}

export interface UserChanges {
  name?: string;
  email?: string;
}

export async function updateUser(deps: Deps, actorId: number, targetId: number, changes: UserChanges) {
  const current = await loadUser(deps, targetId);
  await requireCanManage(deps, actorId, current);
  const updatedAt = isoNow(deps.clock);
  const email = changes.email === undefined ? current.email : normalizeEmail(changes.email);
  if (email === current.email) {
    const { data } = await deps.db.entities.user
      .patch({ id: targetId })
      .set({ ...(changes.name !== undefined ? { name: changes.name } : {}), updatedAt })
      .go({ response: 'all_new' });
    return userView(data as UserItem);
  }
  try {
    await commitOrThrow(() =>
      deps.db.transaction
        .write(({ user, userEmail }) => [
          userEmail.create({ email, userId: targetId }).commit(),
          // Both conditions fail the whole change if another one got there first.
          userEmail.delete({ email: current.email }).where((attr, op) => op.eq(attr.userId, targetId)).commit(),
          user
            .patch({ id: targetId })
            .set({ email, ...(changes.name !== undefined ? { name: changes.name } : {}), updatedAt })
            .remove(['emailVerifiedAt'])
            .where((attr, op) => op.eq(attr.email, current.email))
            .commit(),
        ])
        .go(),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if ((await findUserIdByEmail(deps, email)) === undefined) {
      throw new StateConflict('The user changed meanwhile; read it and try again.', 'changed', 'update');
    }
    throw new DuplicateResource('user', 'email');
  }
  return userView(await loadUser(deps, targetId));
}
