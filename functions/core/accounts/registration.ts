import { DuplicateResource } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { reserveAttempt } from '#core/store/throttle-windows';
import { type AccountLinks, accountMail } from '#core/users/account-mail';
import { hashPassword } from '#core/users/passwords';
import { findUserIdByEmail, loadUser, normalizeEmail } from '#core/users/users';
import { sendVerificationLink } from './email-verification.ts';
import { createAccount } from './new-account.ts';
import { accountThrottles } from './throttles.ts';

export interface Registration {
  name: string;
  email: string;
  password: string;
  sourceIp: string;
}

/**
 * Self-registration answers the same and costs one bcrypt whether or not the email has an
 * account, so that it tells nobody which emails are registered; an account's owner is mailed
 * that someone tried.
 */
export async function register(deps: Deps, input: Registration, links: AccountLinks): Promise<void> {
  await reserveAttempt(
    deps,
    `register:address:${input.sourceIp}`,
    accountThrottles.registrationAddress,
    'Too many registrations from your address; wait before trying again.',
  );
  const email = normalizeEmail(input.email);
  let ownerId = await findUserIdByEmail(deps, email);
  if (ownerId === undefined) {
    try {
      const { user } = await createAccount(deps, { name: input.name, email, password: input.password, tier: 'free' });
      await sendVerificationLink(deps, user, links);
      return;
    } catch (error) {
      // Registered by someone else a moment ago: answered like any existing email.
      if (!(error instanceof DuplicateResource)) throw error;
      ownerId = (await findUserIdByEmail(deps, email))!;
    }
  } else {
    // The bcrypt a new account would have cost, so that timing does not tell the two apart.
    await hashPassword(deps, input.password);
  }
  const owner = await loadUser(deps, ownerId);
  await deps.mailer.send(accountMail.registrationAttempt(owner.email, owner.name, `${links.base}/forgot-password`));
}
