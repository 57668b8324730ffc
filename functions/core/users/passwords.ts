import { ValidationFailed } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';

/**
 * bcrypt reads at most 72 bytes of its input and ignores the rest, so two passwords that
 * share their first 72 bytes would open the same account. Longer passwords are refused
 * wherever one is set, and never match at login.
 */
export const passwordByteLimit = 72;

export const passwordMinLength = 8;

export const passwordFitsBcrypt = (plain: string): boolean => Buffer.byteLength(plain, 'utf8') <= passwordByteLimit;

export const passwordTooLongMessage = `must be at most ${passwordByteLimit} bytes in UTF-8 (characters outside ASCII take 2 to 4 bytes)`;

/** The bcrypt hash of a password to store: the one way a password is set (register, reset, change, admin CLI, bootstrap). */
export async function hashPassword(deps: Deps, plain: string, field = 'password'): Promise<string> {
  if (!passwordFitsBcrypt(plain)) throw new ValidationFailed({ [field]: [passwordTooLongMessage] });
  return deps.hasher.hash(plain);
}

/** Compares with a stored hash; a password bcrypt would cut short never matches. */
export async function passwordMatches(deps: Deps, plain: string, hash: string): Promise<boolean> {
  const matches = await deps.hasher.compare(plain, hash);
  return matches && passwordFitsBcrypt(plain);
}
