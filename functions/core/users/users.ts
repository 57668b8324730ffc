import { personalNamespace } from '#core/namespaces/defaults';
import { isoNow } from '#core/platform/clock';
import { AccessDenied, DuplicateResource, NotFound } from '#core/platform/errors';
import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { commitOrThrow, isConditionFailure } from '#core/store/conditions';
import type { UserItem } from '#core/store/items';
import { hashPassword } from './passwords.ts';

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
  /** An operator vouches for the address (admin CLI, bootstrap): no link to open. */
  emailVerified?: boolean;
  /** The id of the workspace made with the account (accounts.ts), where the user's events go. */
  personalWorkspaceId?: string;
}

/**
 * Creates a user and claims its email in one transaction: a taken email is a 409. No event:
 * a new account belongs to no workspace yet (event-types.ts, unsentEventTypes).
 */
export async function createUser(deps: Deps, input: NewUser): Promise<UserItem> {
  const now = isoNow(deps.clock);
  const email = normalizeEmail(input.email);
  const item: UserItem = {
    id: await nextId(deps, 'user'),
    name: input.name,
    email,
    tier: input.tier,
    platformAdmin: input.platformAdmin ?? false,
    passwordHash: input.password === undefined ? undefined : await hashPassword(deps, input.password),
    emailVerifiedAt: input.emailVerified ? now : undefined,
    personalWorkspaceId: input.personalWorkspaceId,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await commitOrThrow(() =>
      deps.db.transaction
        .write(({ user, userEmail, namespace }) => [
          userEmail.create({ email, userId: item.id }).commit(),
          user.create(item).commit(),
          personalNamespace(namespace, item),
        ])
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

/** Platform operations are for platform admins, whatever scopes their credential holds. */
export async function requirePlatformAdmin(deps: Deps, userId: number): Promise<void> {
  const user = await loadUser(deps, userId);
  if (!user.platformAdmin) throw new AccessDenied('Only a platform admin may do this.');
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
