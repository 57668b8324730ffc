import { claimPendingInvitations } from '#core/members/pending-invitations';
import { isoNow } from '#core/platform/clock';
import { InvalidLink } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import type { AccountTokenItem, UserItem } from '#core/store/items';
import { reserveAttempt } from '#core/store/throttle-windows';
import { type AccountLinks, accountMail } from '#core/users/account-mail';
import { changeUser } from '#core/users/user-changes';
import { userView } from '#core/users/user-view';
import { loadUser } from '#core/users/users';
import { accountTokenLifetimeSeconds, issueAccountToken, mailedTo, openAccountToken, spentToken } from './account-tokens.ts';
import { accountThrottles } from './throttles.ts';

/** Mails `user` a link that verifies their current email: `{base}/email/verify/{id}/{token}`. */
export async function sendVerificationLink(deps: Deps, user: Pick<UserItem, 'id' | 'name' | 'email'>, links: AccountLinks): Promise<void> {
  const token = await issueAccountToken(deps, 'verify-email', user.id, user.email);
  await deps.mailer.send(
    accountMail.verifyEmail(user.email, user.name, `${links.base}/email/verify/${user.id}/${token}`, accountTokenLifetimeSeconds),
  );
}

/**
 * A new verification link, at most six a minute per user. Answers false, sending nothing,
 * when the address is verified already.
 */
export async function resendVerificationLink(deps: Deps, userId: number, links: AccountLinks): Promise<boolean> {
  const user = await loadUser(deps, userId);
  if (user.emailVerifiedAt) return false;
  await reserveAttempt(
    deps,
    `verify:user:${userId}`,
    accountThrottles.verificationMail,
    'Too many verification mails; wait before asking again.',
  );
  await sendVerificationLink(deps, user, links);
  return true;
}

/**
 * The button of a verification link: the email is verified if it is still the address the link
 * went to, and the token is marked used. Verifying twice changes nothing, so a second press
 * within the hour answers `already`, never an error.
 */
export async function verifyEmail(
  deps: Deps,
  userId: number,
  token: string,
): Promise<{ user: ReturnType<typeof userView>; already: boolean }> {
  const link = await openAccountToken(deps, 'verify-email', token, (item) => item.userId === userId);
  if (!link) throw new InvalidLink();
  const user = await loadUser(deps, userId);
  if (!mailedTo(link, user.email)) throw new InvalidLink();
  // Opened from a mailed link, with no credential: `live`. The email must still be the one the link went to.
  const verified = user.emailVerifiedAt
    ? user
    : await changeUser(deps, userId, undefined, (current) => {
        if (current.email !== user.email) throw new InvalidLink();
        // Two presses at once: the one that writes second keeps the first one's time.
        return { emailVerifiedAt: current.emailVerifiedAt ?? isoNow(deps.clock) };
      });
  await claimPendingInvitations(deps, userId, user.email);
  if (!link.usedAt) await spend(deps, link);
  return { user: userView(verified), already: !!user.emailVerifiedAt };
}

/** Marks a verification token used; another press that did so first is as good. */
async function spend(deps: Deps, link: AccountTokenItem): Promise<void> {
  try {
    await deps.db.entities.accountToken
      .patch({ digest: link.digest })
      .set(spentToken(link, isoNow(deps.clock)))
      .remove(['email'])
      .where((attr, op) => op.notExists(attr.usedAt))
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
