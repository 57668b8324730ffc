import type * as z from 'zod/mini';
import { withinLimit } from '#core/entitlements/limited-counts';
import { type Acting, eventIn } from '#core/events/origins';
import { commitWithEvents, type NewEvent } from '#core/events/outbox';
import type { ListSource } from '#core/lists/list-source';
import { workspaceScope } from '#core/namespaces/workspace-scope';
import { EmailNotVerified, NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { ignoreConditionFailure, isConditionFailure } from '#core/store/conditions';
import type { InvitationItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { collections, counted, countOneFewer, countOneMore, countOneMoreBelow } from '#core/store/list-counts';
import type { InvitedRole } from '#core/store/roles';
import { prunableFrom } from '#core/store/table';
import { undoJoin } from '#core/tenancy/membership';
import { madeInOpenWorkspace } from '#core/tenancy/workspace-open';
import { workspaceSummaryView } from '#core/tenancy/workspace-view';
import { memberView } from '#core/users/user-view';
import type { invitation as invitationSchema, joinedWorkspace } from './invitation-schemas.ts';

export const invitationLifetimeSeconds = 7 * 24 * 3600;

/** Past its TTL an invitation has lapsed, whether or not it has been pruned yet. */
export const invitationIsOpen = (item: Pick<InvitationItem, 'ttl'>, now: Date) => item.ttl * 1000 > now.getTime();

/** What reports an invitation, by its expiry: POST /users's `invitation.created`; nothing when a pending one is claimed. */
export type InvitationEvents = (expiresAt: Date) => NewEvent[];

/**
 * Invites a user into a workspace, counted among the user's invitations; inviting again
 * renews the invitation (a new week, the new role) and counts nothing twice. Either write
 * carries the events `reported` makes.
 */
export async function invite(
  deps: Deps,
  invitation: { userId: number; workspaceId: string; role: InvitedRole; invitedBy: number },
  reported: InvitationEvents = () => [],
) {
  const { userId, workspaceId } = invitation;
  return madeInOpenWorkspace(
    deps,
    workspaceId,
    () => createOrRenew(deps, invitation, reported),
    ({ prunableAt }) => removeInvitation(deps, { userId, workspaceId, prunableAt }).catch(ignoreConditionFailure),
  ).then(({ expiresAt }) => expiresAt);
}

async function createOrRenew(deps: Deps, invitation: Parameters<typeof invite>[1], reported: InvitationEvents) {
  const now = deps.clock.now();
  const ttl = Math.floor(now.getTime() / 1000) + invitationLifetimeSeconds;
  const fields = {
    role: invitation.role,
    invitedBy: invitation.invitedBy,
    createdAt: now.toISOString(),
    ttl,
    prunableAt: prunableFrom(ttl),
  };
  const key = { userId: invitation.userId, workspaceId: invitation.workspaceId };
  const events = reported(new Date(ttl * 1000));
  // The pruning job may delete a lapsed one between the two attempts: then create again.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await commitWithEvents(deps, events, ({ invitation: invitations, counter }) => [
        invitations.create({ ...key, ...fields }).commit(),
        countOneMore(counter, collections.invitationsOfUser(invitation.userId)),
      ]);
      return { expiresAt: new Date(ttl * 1000), prunableAt: fields.prunableAt };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    try {
      // createdAt is read-only: a renewed invitation keeps the date it was first made.
      const { createdAt: _kept, ...renewed } = fields;
      await commitWithEvents(deps, events, ({ invitation: invitations }) => [invitations.patch(key).set(renewed).commit()]);
      return { expiresAt: new Date(ttl * 1000), prunableAt: fields.prunableAt };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Error('An invitation was created and removed concurrently three times.');
}

/**
 * The invitations waiting for a user, in key order (by the inviting workspace's id, i.e.
 * its creation), with the workspace's name. The Query drops lapsed ones.
 */
export function invitationsOf(deps: Deps, userId: number): ListSource<InvitationItem, ReturnType<typeof invitationView>> {
  const nowSeconds = deps.clock.now().getTime() / 1000;
  const { invitation, workspace } = deps.db.entities;
  return {
    ...counted(deps.db, collections.invitationsOfUser(userId)),
    orderedBy: 'workspace_id',
    read: keyOrderReader(invitation, 'byUser', () => invitation.query.byUser({ userId }).where((attr, op) => op.gt(attr.ttl, nowSeconds))),
    async view(rows) {
      if (!rows.length) return [];
      const { data } = await workspace.get(rows.map((i) => ({ id: i.workspaceId }))).go();
      const names = new Map(data.map((w) => [w.id, w.name]));
      // A workspace deleted while this page was read takes its invitations with it.
      return rows.filter((item) => names.has(item.workspaceId)).map((item) => invitationView(item, names.get(item.workspaceId)!));
    },
  };
}

function invitationView(item: InvitationItem, workspaceName: string): z.output<typeof invitationSchema> {
  return {
    workspace_id: item.workspaceId,
    workspace_name: workspaceName,
    role: item.role,
    created_at: item.createdAt,
    expires_at: new Date(item.ttl * 1000).toISOString(),
  };
}

async function openInvitation(deps: Deps, userId: number, workspaceId: string) {
  const { data } = await deps.db.entities.invitation.get({ userId, workspaceId }).go({ consistent: true });
  if (!data || !invitationIsOpen(data, deps.clock.now())) throw new NotFound('invitation', workspaceId);
  return data;
}

/**
 * Joins the workspace with the invited role; the invitation is used up. Every count moves
 * with it. Only an account whose email is verified may accept: whoever registered an
 * address they do not own cannot take up what was sent to it.
 */
export async function acceptInvitation(
  deps: Deps,
  userId: number,
  workspaceId: string,
  acting?: Acting,
): Promise<z.output<typeof joinedWorkspace>> {
  const { data: user } = await deps.db.entities.user.get({ id: userId }).go({ consistent: true });
  if (!user?.emailVerifiedAt) throw new EmailNotVerified('accept an invitation');
  const invitation = await openInvitation(deps, userId, workspaceId);
  const { data: workspace } = await deps.db.entities.workspace.get({ id: workspaceId }).go();
  if (!workspace || workspace.deletingAt) throw new NotFound('invitation', workspaceId);
  const members = collections.membersOfWorkspace(workspaceId);
  const joined = eventIn(workspaceId, acting, 'member.added', memberView(user, invitation.role));
  const scope = await workspaceScope(deps, workspace, 'live');
  try {
    // The member count is conditioned on the plan's limit: racing accepts cannot pass it.
    const accept = () =>
      withinLimit(
        deps,
        scope,
        'members',
        (limit) =>
          commitWithEvents(deps, [joined], ({ membership, invitation: invitations, counter }) => [
            membership.create({ workspaceId, userId, role: invitation.role, createdAt: deps.clock.now().toISOString() }).commit(),
            invitations
              .delete({ userId, workspaceId })
              .where((attr, op) => op.exists(attr.role))
              .commit(),
            countOneFewer(counter, collections.invitationsOfUser(userId)),
            countOneMore(counter, collections.workspacesOfUser(userId)),
            countOneMoreBelow(counter, members, limit),
          ]),
        () => counted(deps.db, members).count(),
      );
    await madeInOpenWorkspace(deps, workspaceId, accept, () => undoJoin(deps, workspaceId, userId));
  } catch (error) {
    // Accepted twice at once, or a member already: either way nothing is left to accept.
    if (isConditionFailure(error)) throw new NotFound('invitation', workspaceId);
    throw error;
  }
  return { ...workspaceSummaryView(workspace), role: invitation.role };
}

/** Declines, with `invitation.declined` to the inviting workspace (none if that is being deleted: nobody is left to tell). */
export async function declineInvitation(deps: Deps, userId: number, workspaceId: string, acting?: Acting): Promise<void> {
  const invitation = await openInvitation(deps, userId, workspaceId);
  const { data: workspace } = await deps.db.entities.workspace.get({ id: workspaceId }).go();
  const events = workspace ? [eventIn(workspaceId, acting, 'invitation.declined', invitationView(invitation, workspace.name))] : [];
  await removeInvitation(deps, invitation, events).catch((error: unknown) => {
    if (isConditionFailure(error)) throw new NotFound('invitation', workspaceId);
    throw error;
  });
}

/**
 * Deletes an invitation as it was read (its `prunableAt` unchanged, so a renewal meanwhile
 * survives) and counts it out: declining (with its event), pruning and deleting the
 * workspace all do this.
 */
export function removeInvitation(
  deps: Deps,
  item: Pick<InvitationItem, 'userId' | 'workspaceId' | 'prunableAt'>,
  events: readonly NewEvent[] = [],
) {
  return commitWithEvents(deps, events, ({ invitation, counter }) => [
    invitation
      .delete({ userId: item.userId, workspaceId: item.workspaceId })
      .where((attr, op) => op.eq(attr.prunableAt, item.prunableAt))
      .commit(),
    countOneFewer(counter, collections.invitationsOfUser(item.userId)),
  ]);
}
