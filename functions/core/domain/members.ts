import { randomBytes } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import type { Actor } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { DuplicateResource } from '../errors.ts';
import type { ListSource } from '../lists/list-source.ts';
import { commitOrThrow } from '../store/conditions.ts';
import type { Database } from '../store/database.ts';
import type { Role } from '../store/entities/membership.ts';
import { keyOrderReader } from '../store/key-order.ts';
import { collections, counted, countOneMore } from '../store/list-counts.ts';
import { invite } from './invitations.ts';
import { requireRole, roleIn } from './membership.ts';
import { createUser, findUserIdByEmail, userView } from './users.ts';

type MembershipItem = EntityItem<Database['entities']['membership']>;

/**
 * The members of a workspace with their roles, in user id order, which is the order the
 * users were created in (the `created_at` each member shows).
 */
export function membersOf(deps: Deps, workspaceId: string): ListSource<MembershipItem, ReturnType<typeof userView> & { role: Role }> {
  const { membership, user } = deps.db.entities;
  return {
    ...counted(deps.db, collections.membersOfWorkspace(workspaceId)),
    orderedBy: 'created_at',
    read: keyOrderReader(membership, 'byWorkspace', () => membership.query.byWorkspace({ workspaceId })),
    async view(rows) {
      if (!rows.length) return [];
      const { data: users } = await user.get(rows.map((m) => ({ id: m.userId }))).go();
      const byId = new Map(users.map((u) => [u.id, u]));
      return rows.filter((m) => byId.has(m.userId)).map((m) => ({ ...userView(byId.get(m.userId)!), role: m.role }));
    },
  };
}

/** Makes a user a member, counted among the workspace's members and the user's workspaces. */
export async function join(deps: Deps, workspaceId: string, userId: number, role: Role): Promise<void> {
  await commitOrThrow(() =>
    deps.db.transaction
      .write(({ membership, counter }) => [
        membership.create({ workspaceId, userId, role, createdAt: deps.clock.now().toISOString() }).commit(),
        countOneMore(counter, collections.membersOfWorkspace(workspaceId)),
        countOneMore(counter, collections.workspacesOfUser(userId)),
      ])
      .go(),
  );
}

export interface NewMember {
  email: string;
  name?: string;
  role: Exclude<Role, 'owner'>;
  password?: string;
}

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
  const existingId = await findUserIdByEmail(deps, input.email);
  if (existingId === undefined) {
    const user = await createUser(deps, {
      name: input.name ?? input.email.split('@')[0]!,
      email: input.email,
      tier: 'free',
      password: input.password ?? randomBytes(24).toString('base64url'),
      managedByWorkspaceId: workspaceId,
    });
    await join(deps, workspaceId, user.id, input.role);
    return { kind: 'added', member: { ...userView(user), role: input.role } };
  }
  const { data: member } = await deps.db.entities.membership.get({ workspaceId, userId: existingId }).go();
  if (member) throw new DuplicateResource('membership', 'email');
  const expiresAt = await invite(deps, { userId: existingId, workspaceId, role: input.role, invitedBy: actor.userId });
  return {
    kind: 'invited',
    invitation: { email: input.email, role: input.role, workspace_id: workspaceId, status: 'invited', expires_at: expiresAt.toISOString() },
  };
}
