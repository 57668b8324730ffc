import type * as z from 'zod/mini';
import { requireUnboundCredential } from '#core/access/issuance-limits';
import type { Actor } from '#core/access/principal';
import { limitNow, requireBelow } from '#core/entitlements/limited-counts';
import { eventIn } from '#core/events/origins';
import { commitWithEvents, type NewEvent } from '#core/events/outbox';
import type { ListSource } from '#core/lists/list-source';
import { workspaceScope } from '#core/namespaces/workspace-scope';
import { DuplicateResource, NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import type { MembershipItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { collections, counted, countOneMore } from '#core/store/list-counts';
import type { InvitedRole, Role } from '#core/store/roles';
import { requireRole, roleIn, undoJoin } from '#core/tenancy/membership';
import { madeInOpenWorkspace } from '#core/tenancy/workspace-open';
import { type AccountLinks, accountMail, type Paragraph } from '#core/users/account-mail';
import { memberView } from '#core/users/user-view';
import { findUserIdByEmail, loadUser, normalizeEmail } from '#core/users/users';
import type { sentInvitation } from './invitation-schemas.ts';
import { invitationLifetimeSeconds, invite } from './invitations.ts';
import { invitePendingEmail } from './pending-invitations.ts';

/**
 * The members of a workspace with their roles, in user id order, which is the order the
 * users were created in (the `created_at` each member shows).
 */
export function membersOf(deps: Deps, workspaceId: string): ListSource<MembershipItem, ReturnType<typeof memberView>> {
  const { membership, user } = deps.db.entities;
  return {
    ...counted(deps.db, collections.membersOfWorkspace(workspaceId)),
    orderedBy: 'created_at',
    read: keyOrderReader(membership, 'byWorkspace', () => membership.query.byWorkspace({ workspaceId })),
    async view(rows) {
      if (!rows.length) return [];
      const { data: users } = await user.get(rows.map((m) => ({ id: m.userId }))).go();
      const byId = new Map(users.map((u) => [u.id, u]));
      return rows.filter((m) => byId.has(m.userId)).map((m) => memberView(byId.get(m.userId)!, m.role));
    },
  };
}

/**
 * Makes a user a member, counted among the workspace's members and the user's workspaces,
 * with `member.added` (an operator's direct add: `live`).
 */
export async function join(deps: Deps, workspaceId: string, userId: number, role: Role): Promise<void> {
  const user = await loadUser(deps, userId);
  await madeInOpenWorkspace(
    deps,
    workspaceId,
    () =>
      commitWithEvents(deps, [eventIn(workspaceId, undefined, 'member.added', memberView(user, role))], ({ membership, counter }) => [
        membership.create({ workspaceId, userId, role, createdAt: deps.clock.now().toISOString() }).commit(),
        countOneMore(counter, collections.membersOfWorkspace(workspaceId)),
        countOneMore(counter, collections.workspacesOfUser(userId)),
      ]),
    () => undoJoin(deps, workspaceId, userId),
  );
}

export interface NewMember {
  email: string;
  /** How the mail greets someone who has no account yet. */
  name?: string;
  role: InvitedRole;
}

/** What POST /users answers, the same whether or not the email has an account. */
type SentInvitation = z.output<typeof sentInvitation>;

/**
 * Invites someone by email: an account gets an invitation to accept, an email without one a
 * pending invitation, so that nobody becomes a member without saying yes; both answer alike, so
 * that the answer does not tell whether the email has an account. An OAuth token invites
 * nobody, as the membership would outlive the token's revocation.
 */
export async function addMember(
  deps: Deps,
  actor: Actor,
  workspaceId: string,
  input: NewMember,
  links: AccountLinks,
): Promise<SentInvitation> {
  requireUnboundCredential(actor, 'invite people (the membership would outlive the token)');
  requireRole(await roleIn(deps, workspaceId, actor), ['owner', 'admin'], 'add members');
  const email = normalizeEmail(input.email);
  const { data: workspace } = await deps.db.entities.workspace.get({ id: workspaceId }).go();
  if (!workspace) throw new NotFound('workspace', workspaceId);
  // Early, for the inviter; accepting checks again, atomically.
  const scope = await workspaceScope(deps, workspace, 'live');
  requireBelow(
    'members',
    limitNow(scope, 'members', deps.clock.now()),
    await counted(deps.db, collections.membersOfWorkspace(workspaceId)).count(),
  );
  const existingId = await findUserIdByEmail(deps, email);
  const accept = `POST ${links.api}/user/invitations/${workspaceId}/accept`;
  let expiresAt: Date;
  let nextSteps: Paragraph[];
  // The invitation as this answers it, in the inviter's environment.
  const invited = (expiresAt: Date): NewEvent[] => [
    eventIn(workspaceId, actor, 'invitation.created', sentInvitationView(email, input.role, workspaceId, expiresAt)),
  ];
  if (existingId === undefined) {
    expiresAt = await invitePendingEmail(deps, { email, workspaceId, role: input.role, invitedBy: actor.userId }, invited);
    nextSteps = [
      `${input.name ? `${input.name}, to` : 'To'} join, create an account with this email address (POST, with name, email and password):`,
      { link: `${links.base}/register` },
      `Then open the verification link we mail you, and accept the invitation: ${accept}`,
    ];
  } else {
    const { data: member } = await deps.db.entities.membership.get({ workspaceId, userId: existingId }).go();
    // The actor may list the members anyway: saying so discloses nothing.
    if (member) throw new DuplicateResource('membership', 'email');
    expiresAt = await invite(deps, { userId: existingId, workspaceId, role: input.role, invitedBy: actor.userId }, invited);
    nextSteps = [
      `Sign in and accept it (your email must be verified): ${accept}`,
      'Your invitations:',
      { link: `${links.api}/user/invitations` },
    ];
  }
  await deps.mailer.send(accountMail.invitation(email, workspace.name, input.role, nextSteps, invitationLifetimeSeconds));
  return sentInvitationView(email, input.role, workspaceId, expiresAt);
}

const sentInvitationView = (email: string, role: InvitedRole, workspaceId: string, expiresAt: Date): SentInvitation => ({
  email,
  role,
  workspace_id: workspaceId,
  status: 'invited',
  expires_at: expiresAt.toISOString(),
});
