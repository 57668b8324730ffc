import { randomBytes } from 'node:crypto';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { DuplicateResource } from '../errors.ts';
import { isConditionFailure } from '../store/conditions.ts';
import type { Role } from '../store/entities/membership.ts';
import { requireRole, roleIn } from './membership.ts';
import { createUser, findUserIdByEmail, loadUser, userView } from './users.ts';

/** The members of a workspace with their roles, in the order they joined. */
export async function listMembers(deps: Deps, workspaceId: string) {
  const { data: members } = await deps.db.entities.membership.query.byWorkspace({ workspaceId }).go({ pages: 'all' });
  if (!members.length) return [];
  const { data: users } = await deps.db.entities.user.get(members.map((m) => ({ id: m.userId }))).go();
  const byId = new Map(users.map((u) => [u.id, u]));
  return members
    .filter((m) => byId.has(m.userId))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((m) => ({ ...userView(byId.get(m.userId)!), role: m.role }));
}

export interface NewMember {
  email: string;
  name?: string;
  role: Exclude<Role, 'owner'>;
  password?: string;
}

/**
 * Adds a user to a workspace, creating the user when the email is new (with the password
 * given, or none: such a user signs in only once a password is set). Owners and admins only.
 */
export async function addMember(deps: Deps, actorId: number, workspaceId: string, input: NewMember) {
  requireRole(await roleIn(deps, workspaceId, actorId), ['owner', 'admin'], 'add members');
  const existingId = await findUserIdByEmail(deps, input.email);
  const user = existingId
    ? await loadUser(deps, existingId)
    : await createUser(deps, {
        name: input.name ?? input.email.split('@')[0]!,
        email: input.email,
        tier: 'free',
        password: input.password ?? randomBytes(24).toString('base64url'),
        managedByWorkspaceId: workspaceId,
      });
  try {
    await deps.db.entities.membership
      .create({ workspaceId, userId: user.id, role: input.role, createdAt: isoNow(deps.clock) })
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw new DuplicateResource('membership', 'email');
  }
  return { ...userView(user), role: input.role };
}
