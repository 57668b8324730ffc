import { commitWithEvents } from '#core/events/outbox';
import { NotFound } from '#core/platform/errors';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import type { InvitedRole } from '#core/store/roles';
import { prunableFrom } from '#core/store/table';
import { madeInOpenWorkspace } from '#core/tenancy/workspace-open';
import { type InvitationEvents, invitationIsOpen, invitationLifetimeSeconds, invite } from './invitations.ts';

/** Pending invitations are found by the digest of the normalized email (the caller normalizes). */
const emailDigestOf = (email: string) => sha256(email);

/**
 * Invites an email that has no account: recorded for a week, renewed (new week, new
 * role) when invited again. Nobody can act on it until the address is verified.
 */
export async function invitePendingEmail(
  deps: Deps,
  invitation: { email: string; workspaceId: string; role: InvitedRole; invitedBy: number },
  reported: InvitationEvents,
): Promise<Date> {
  const now = deps.clock.now();
  const ttl = Math.floor(now.getTime() / 1000) + invitationLifetimeSeconds;
  const key = { emailDigest: emailDigestOf(invitation.email), workspaceId: invitation.workspaceId };
  await madeInOpenWorkspace(
    deps,
    invitation.workspaceId,
    () =>
      commitWithEvents(deps, reported(new Date(ttl * 1000)), ({ pendingInvitation }) => [
        pendingInvitation
          .put({
            ...key,
            role: invitation.role,
            invitedBy: invitation.invitedBy,
            createdAt: now.toISOString(),
            ttl,
            prunableAt: prunableFrom(ttl),
          })
          .commit(),
      ]),
    () => deps.db.entities.pendingInvitation.delete(key).go(),
  );
  return new Date(ttl * 1000);
}

/** Drops a deleted workspace's pending invitations: nobody could accept them any more. */
export async function forgetPendingInvitationsInto(deps: Deps, workspaceId: string): Promise<void> {
  const { pendingInvitation } = deps.db.entities;
  const { data } = await pendingInvitation.query.byWorkspace({ workspaceId }).go({ pages: 'all' });
  if (data.length) await pendingInvitation.delete(data.map(({ emailDigest }) => ({ emailDigest, workspaceId }))).go();
}

/**
 * Once `userId` has proven they own `email` (a verification or email-change link), the
 * open pending invitations of that address become their invitations, to accept or decline.
 * Invitations into a workspace that is gone, or that they already belong to, just end.
 */
export async function claimPendingInvitations(deps: Deps, userId: number, email: string): Promise<void> {
  const { pendingInvitation, workspace, membership } = deps.db.entities;
  const { data } = await pendingInvitation.query.byEmail({ emailDigest: emailDigestOf(email) }).go({ pages: 'all' });
  const now = deps.clock.now();
  for (const pending of data) {
    if (invitationIsOpen(pending, now)) {
      const [{ data: target }, { data: member }] = await Promise.all([
        workspace.get({ id: pending.workspaceId }).go(),
        membership.get({ workspaceId: pending.workspaceId, userId }).go(),
      ]);
      if (target && !target.deletingAt && !member) {
        await invite(deps, { userId, workspaceId: pending.workspaceId, role: pending.role, invitedBy: pending.invitedBy }).catch(
          (error: unknown) => {
            // The workspace began to go meanwhile: the invitation ends with it.
            if (!(error instanceof NotFound)) throw error;
          },
        );
      }
    }
    await pendingInvitation.delete({ emailDigest: pending.emailDigest, workspaceId: pending.workspaceId }).go();
  }
}
