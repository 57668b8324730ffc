import { randomBytes } from 'node:crypto';
import type { Actor } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { DuplicateResource } from '../errors.ts';
import type { Role } from '../store/entities/membership.ts';
import { requireRole, roleIn } from './membership.ts';
import { createUser, findUserIdByEmail, userView } from './users.ts';

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

export const invitationLifetimeSeconds = 7 * 24 * 3600;

export type AddedMember =
  | { kind: 'added'; member: ReturnType<typeof userView> & { role: Role } }
  | { kind: 'invited'; invitation: { email: string; role: Role; workspace_id: string; status: 'invited'; expires_at: string } };

/**
 * Adds someone to a workspace (owners and admins only). A new email gets a user made by
 * this workspace (with the password given, or a random one) and a membership at once. An
 * email that already has an account gets an invitation instead: nobody becomes a member of
 * a workspace, or learns anything of the account, without the user saying yes.
 */
export async function addMember(deps: Deps, actor: Actor, workspaceId: string, input: NewMember): Promise<AddedMember> {
  requireRole(await roleIn(deps, workspaceId, actor), ['owner', 'admin'], 'add members');
  const now = deps.clock.now();
  const existingId = await findUserIdByEmail(deps, input.email);
  if (existingId === undefined) {
    const user = await createUser(deps, {
      name: input.name ?? input.email.split('@')[0]!,
      email: input.email,
      tier: 'free',
      password: input.password ?? randomBytes(24).toString('base64url'),
      managedByWorkspaceId: workspaceId,
    });
    await deps.db.entities.membership.create({ workspaceId, userId: user.id, role: input.role, createdAt: now.toISOString() }).go();
    return { kind: 'added', member: { ...userView(user), role: input.role } };
  }
  const { data: member } = await deps.db.entities.membership.get({ workspaceId, userId: existingId }).go();
  if (member) throw new DuplicateResource('membership', 'email');
  const expiresAt = new Date(now.getTime() + invitationLifetimeSeconds * 1000);
  await deps.db.entities.invitation
    .put({ userId: existingId, workspaceId, role: input.role, invitedBy: actor.userId, createdAt: now.toISOString(), ttl: Math.floor(expiresAt.getTime() / 1000) })
    .go();
  return {
    kind: 'invited',
    invitation: { email: input.email, role: input.role, workspace_id: workspaceId, status: 'invited', expires_at: expiresAt.toISOString() },
  };
}
