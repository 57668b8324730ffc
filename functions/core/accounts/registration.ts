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
 * Self-registration, which answers the same whether or not the email has an account: a
 * new email gets a user with a personal workspace and a verification link; an email that
 * has an account changes nothing, and its owner gets a mail saying someone tried (with the
 * way to reset a forgotten password). Both ways cost one bcrypt. At most 50 attempts an
 * hour per client address.
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
