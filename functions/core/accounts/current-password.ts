import { ValidationFailed } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import type { UserItem } from '#core/store/items';
import { refundAttempt, reserveAttempt } from '#core/store/throttle-windows';
import { passwordMatches } from '#core/users/passwords';
import { accountThrottles } from './throttles.ts';

/**
 * The account's password typed again, to confirm a change a stolen credential must not make
 * alone. Wrong ones count against one window per user whichever route took them (five in
 * fifteen minutes), so that two routes give no more guesses than one.
 */
export async function requireCurrentPassword(deps: Deps, user: UserItem, plain: string | undefined, requiredTo: string): Promise<void> {
  if (!user.passwordHash) {
    // Nothing to check it against (no route makes such an account): the mailed reset link sets one.
    throw new ValidationFailed({
      current_password: ['cannot be checked: the account has no password; set one with a password reset (POST /forgot-password) first'],
    });
  }
  if (plain === undefined) throw new ValidationFailed({ current_password: [`is required ${requiredTo}`] });
  const subject = `password:user:${user.id}`;
  await reserveAttempt(deps, subject, accountThrottles.passwordChange, 'Too many wrong passwords; wait before trying again.');
  if (!(await passwordMatches(deps, plain, user.passwordHash))) throw new ValidationFailed({ current_password: ['is incorrect'] });
  await refundAttempt(deps, subject, accountThrottles.passwordChange);
}
