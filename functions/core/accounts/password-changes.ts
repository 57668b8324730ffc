import { revokeApiKey } from '#core/api-keys/api-keys';
import type { Acting } from '#core/events/origins';
import { NotFound, ValidationFailed } from '#core/platform/errors';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { reserveAttempt } from '#core/store/throttle-windows';
import { type AccountLinks, accountMail } from '#core/users/account-mail';
import { hashPassword } from '#core/users/passwords';
import { changeUser } from '#core/users/user-changes';
import { revokeUserToken } from '#core/users/user-tokens';
import { findUserIdByEmail, loadUser, normalizeEmail, workspaceIdsOf } from '#core/users/users';
import { accountTokenLifetimeSeconds, issueAccountToken, takeAccountToken } from './account-tokens.ts';
import { requireCurrentPassword } from './current-password.ts';
import { endSessionsOf } from './sessions.ts';
import { accountThrottles } from './throttles.ts';

/**
 * Mails a reset link, `{base}/reset-password/{token}?email=...`, if the email has an
 * account; answers the same either way. Throttled per client address and per email
 * (counted for unknown emails too, so the limit tells nothing).
 */
export async function forgotPassword(deps: Deps, input: { email: string; sourceIp: string }, links: AccountLinks): Promise<void> {
  const email = normalizeEmail(input.email);
  const message = 'Too many password reset requests; wait before asking again.';
  await reserveAttempt(deps, `reset:address:${input.sourceIp}`, accountThrottles.resetAddress, message);
  await reserveAttempt(deps, `reset:email:${sha256(email)}`, accountThrottles.resetEmail, message);
  const userId = await findUserIdByEmail(deps, email);
  if (userId === undefined) return;
  const user = await loadUser(deps, userId);
  const token = await issueAccountToken(deps, 'reset-password', user.id, user.email);
  const link = `${links.base}/reset-password/${token}?email=${encodeURIComponent(user.email)}`;
  await deps.mailer.send(accountMail.resetPassword(user.email, user.name, link, accountTokenLifetimeSeconds));
}

/**
 * Sets a new password with a mailed token, good once for 60 minutes and only while its email is
 * the account's; every session ends. User tokens and API keys stay, as in Laravel, unless the
 * email was never verified: then whoever registered the address first loses every credential
 * they made.
 */
export async function resetPassword(deps: Deps, input: { token: string; email: string; password: string }): Promise<void> {
  const email = normalizeEmail(input.email);
  // Hashed before the token is used up, so a refused password does not cost the link.
  const passwordHash = await hashPassword(deps, input.password);
  const used = await takeAccountToken(deps, 'reset-password', input.token, (item) => item.email === email);
  const user = used && (await loadUser(deps, used.userId));
  if (!used || !user || user.email !== email)
    throw new ValidationFailed({ token: ['is invalid, used or expired: ask for a new reset link'] });
  // Reset from a mailed link, with no credential: `live`. An email changed meanwhile voids the token.
  await changeUser(deps, user.id, undefined, (current) => {
    if (current.email !== email) throw new ValidationFailed({ token: ['is invalid, used or expired: ask for a new reset link'] });
    return { passwordHash };
  });
  await voidEmailChange(deps, user.id);
  await endSessionsOf(deps, user.id);
  if (!user.emailVerifiedAt) await revokeCredentialsOf(deps, user.id);
}

/** Revokes every user token and API key acting for `userId`; ones that ended meanwhile are skipped. */
async function revokeCredentialsOf(deps: Deps, userId: number): Promise<void> {
  const skipGone = (error: unknown) => {
    if (!(error instanceof NotFound)) throw error;
  };
  const { userToken, apiKey } = deps.db.entities;
  const { data: tokens } = await userToken.query.byUser({ userId }).go({ pages: 'all' });
  // The reset proves the address: it acts with the account's whole authority.
  for (const token of tokens) await revokeUserToken(deps, { userId, scopes: ['*'] }, token.id).catch(skipGone);
  for (const workspaceId of await workspaceIdsOf(deps, userId)) {
    const { data: keys } = await apiKey.query
      .byWorkspace({ workspaceId })
      .where((attr, op) => op.eq(attr.userId, userId))
      .go({ pages: 'all' });
    for (const key of keys) await revokeApiKey(deps, { userId }, workspaceId, key.id).catch(skipGone);
  }
}

/**
 * PUT /user/password: the current password is required (five wrong ones per user in
 * fifteen minutes, with those of email changes, then 429). Every other session of the user
 * ends; the calling one, if it is a session, stays.
 */
export async function changePassword(
  deps: Deps,
  input: { userId: number; currentPassword: string; password: string; keepSessionDigest?: string },
  acting?: Acting,
): Promise<void> {
  const user = await loadUser(deps, input.userId);
  await requireCurrentPassword(deps, user, input.currentPassword, 'to change the password');
  const passwordHash = await hashPassword(deps, input.password);
  await changeUser(deps, user.id, acting, () => ({ passwordHash }));
  await voidEmailChange(deps, user.id);
  await endSessionsOf(deps, user.id, input.keepSessionDigest);
}

/** A new password stops an email change still waiting for its link (the notice mail says so). */
async function voidEmailChange(deps: Deps, userId: number): Promise<void> {
  await deps.db.entities.user.patch({ id: userId }).remove(['pendingEmailChange']).go({ response: 'none' });
}
