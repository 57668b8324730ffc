import { type Acting, personalEvents } from '#core/events/origins';
import { commitWithEvents } from '#core/events/outbox';
import { claimPendingInvitations } from '#core/members/pending-invitations';
import { isoNow } from '#core/platform/clock';
import { AccessDenied, DuplicateResource, InvalidLink, NotFound, StateConflict } from '#core/platform/errors';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import type { UserItem } from '#core/store/items';
import { type AccountLinks, accountMail } from '#core/users/account-mail';
import { changeUser } from '#core/users/user-changes';
import { userView } from '#core/users/user-view';
import { findUserIdByEmail, loadUser, normalizeEmail, workspaceIdsOf } from '#core/users/users';
import { accountTokenLifetimeSeconds, issueAccountToken, mailedTo, openAccountToken, spentToken } from './account-tokens.ts';
import { requireCurrentPassword } from './current-password.ts';

/**
 * Changes to one's own account (PATCH /users/{id}): a name at once, an email when the new
 * address confirms it.
 */

/**
 * May `actorId` change `targetId`? Only themselves: an account is its person's alone,
 * whoever shares a workspace with them. A user the actor shares no workspace with is 404,
 * as if unknown; one they share a workspace with is 403.
 */
async function requireSelf(deps: Deps, actorId: number, target: UserItem): Promise<void> {
  if (actorId === target.id) return;
  const [mine, theirs] = await Promise.all([workspaceIdsOf(deps, actorId), workspaceIdsOf(deps, target.id)]);
  if (!mine.some((id) => theirs.includes(id))) throw new NotFound('user', String(target.id));
  throw new AccessDenied('Only the user may change their own account.');
}

export interface UserChanges {
  name?: string;
  email?: string;
  /** The account's password: required with a new email, checked whenever sent; never kept. */
  currentPassword?: string;
}

/**
 * Changes the own account: a new name at once, a new email only once the link mailed to it is
 * opened, without telling whether another account uses it. A new email needs the current
 * password whatever the credential, as a leaked key holding `users:write` could otherwise take
 * the account (a reset mailed to its own address, then a session).
 */
export async function updateUser(
  deps: Deps,
  actorId: number,
  targetId: number,
  changes: UserChanges,
  links: AccountLinks,
  acting?: Acting,
) {
  const current = await loadUser(deps, targetId);
  await requireSelf(deps, actorId, current);
  const email = changes.email === undefined ? current.email : normalizeEmail(changes.email);
  if (email !== current.email || changes.currentPassword !== undefined) {
    await requireCurrentPassword(deps, current, changes.currentPassword, 'to change the email');
  }
  const { name } = changes;
  const updated = name === undefined ? current : await changeUser(deps, targetId, acting, () => ({ name }));
  if (email === current.email) return { user: userView(updated), emailChangeMailed: false };
  const token = await issueAccountToken(deps, 'change-email', targetId, email);
  // Only the newest link may confirm: it voids any earlier one still in the mail. On condition that the
  // password checked above is still the account's: a change or reset meanwhile, which stops waiting
  // changes, stops this one too (409), however the two requests interleave.
  await deps.db.entities.user
    .patch({ id: targetId })
    .set({ pendingEmailChange: sha256(token) })
    .where((attr, op) => `${op.eq(attr.passwordHash, current.passwordHash!)} AND ${op.eq(attr.email, current.email)}`)
    .go({ response: 'none' })
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
      throw new StateConflict('The account changed meanwhile (its password or email); ask for the change again.', 'changed', 'update');
    });
  await deps.mailer.send(
    accountMail.confirmEmailChange(email, updated.name, `${links.base}/email/change/${targetId}/${token}`, accountTokenLifetimeSeconds),
  );
  await deps.mailer.send(accountMail.emailChangeRequested(current.email, updated.name, email));
  return { user: userView(updated), emailChangeMailed: true };
}

/**
 * The button of updateUser's link: the account takes the confirmed address, verified, in the
 * transaction that marks the token used. Pressed again while that address is the account's, it
 * answers `already` rather than an error.
 */
export async function confirmEmailChange(
  deps: Deps,
  userId: number,
  token: string,
): Promise<{ user: ReturnType<typeof userView>; already: boolean }> {
  const change = await openAccountToken(deps, 'change-email', token, (item) => item.userId === userId);
  if (!change) throw new InvalidLink();
  const current = await loadUser(deps, userId);
  // Done already, by this link or another to the same address.
  if (mailedTo(change, current.email)) return { user: userView(current), already: true };
  // Used (its address kept only as a digest), and the account has moved on to another address since;
  // or stopped: a newer request, a password change or a reset voided it.
  if (change.email === undefined || current.pendingEmailChange !== change.digest) throw new InvalidLink();
  const now = isoNow(deps.clock);
  const set = { email: change.email, emailVerifiedAt: now, updatedAt: now };
  const updated = { ...current, ...set };
  try {
    // Opened from a mailed link, with no credential: `live`.
    await commitWithEvents(
      deps,
      personalEvents(updated, undefined, 'user.updated', userView(updated)),
      ({ user, userEmail, accountToken }) => [
        accountToken
          .patch({ digest: change.digest })
          .set(spentToken(change, now))
          .remove(['email'])
          .where((attr, op) => op.notExists(attr.usedAt))
          .commit(),
        userEmail.create({ email: set.email, userId }).commit(),
        // Both conditions fail the whole change if another one got there first.
        userEmail
          .delete({ email: current.email })
          .where((attr, op) => op.eq(attr.userId, userId))
          .commit(),
        // As read, so that the event reports the user as written; a change meanwhile voids the link (409 below).
        user
          .patch({ id: userId })
          .set(set)
          .remove(['pendingEmailChange'])
          .where(
            (attr, op) =>
              `${op.eq(attr.email, current.email)} AND ${op.eq(attr.updatedAt, current.updatedAt)} AND ${op.eq(attr.pendingEmailChange, change.digest)}`,
          )
          .commit(),
      ],
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const owner = await findUserIdByEmail(deps, set.email);
    // The same link pressed twice at once: the other press made the change.
    if (owner === userId) return { user: userView(await loadUser(deps, userId)), already: true };
    if (owner === undefined) throw new StateConflict('The user changed meanwhile; ask for a new link.', 'changed', 'update');
    throw new DuplicateResource('user', 'email');
  }
  await claimPendingInvitations(deps, userId, set.email);
  return { user: userView(updated), already: false };
}
