import type { EntityItem } from 'electrodb';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { AccessDenied, DuplicateResource, NotFound } from '../errors.ts';
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
    throw new DuplicateResource('user', 'email', String((await findUserIdByEmail(deps, email)) ?? ''));
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

/** Workspace ids of a user, oldest membership first. */
export async function workspaceIdsOf(deps: Deps, userId: number): Promise<string[]> {
  const { data } = await deps.db.entities.membership.query.byUser({ userId }).go({ pages: 'all' });
  return data.map((m) => m.workspaceId);
}

/**
 * May `actorId` change `targetId`? Themselves, or as owner or admin of a workspace they
 * share. Someone who shares no workspace with the target learns nothing: 404.
 */
async function requireCanManage(deps: Deps, actorId: number, targetId: number): Promise<void> {
  if (actorId === targetId) return;
  const [mine, theirs] = await Promise.all([
    deps.db.entities.membership.query.byUser({ userId: actorId }).go({ pages: 'all' }),
    workspaceIdsOf(deps, targetId),
  ]);
  const shared = mine.data.filter((m) => theirs.includes(m.workspaceId));
  if (!shared.length) throw new NotFound('user', String(targetId));
  if (!shared.some((m) => m.role === 'owner' || m.role === 'admin')) {
    throw new AccessDenied('Only the user, or an owner or admin of a workspace you share, may change this user.');
  }
}

export interface UserChanges {
  name?: string;
  email?: string;
}

export async function updateUser(deps: Deps, actorId: number, targetId: number, changes: UserChanges) {
  await requireCanManage(deps, actorId, targetId);
  const current = await loadUser(deps, targetId);
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
          userEmail.delete({ email: current.email }).commit(),
          user
            .patch({ id: targetId })
            .set({ email, ...(changes.name !== undefined ? { name: changes.name } : {}), updatedAt })
            .remove(['emailVerifiedAt'])
            .commit(),
        ])
        .go(),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw new DuplicateResource('user', 'email', String((await findUserIdByEmail(deps, email)) ?? ''));
  }
  return userView(await loadUser(deps, targetId));
}
