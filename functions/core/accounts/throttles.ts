import type { ThrottlePolicy } from '#core/store/throttle-windows';

/** Failed logins: five per email and twenty per client address in fifteen minutes. */
export const loginThrottles = {
  email: { limit: 5, windowSeconds: 15 * 60 },
  address: { limit: 20, windowSeconds: 15 * 60 },
} as const satisfies Record<string, ThrottlePolicy>;

/**
 * Account mail and registration, counted whether or not they succeed: registrations and
 * reset requests per client address, reset requests per email (whether or not it has an
 * account, so the limit tells nothing), verification mails per user (Laravel's 6 a minute).
 */
export const accountThrottles = {
  registrationAddress: { limit: 50, windowSeconds: 60 * 60 },
  resetAddress: { limit: 20, windowSeconds: 15 * 60 },
  resetEmail: { limit: 3, windowSeconds: 15 * 60 },
  verificationMail: { limit: 6, windowSeconds: 60 },
  /** Wrong current passwords (PUT /user/password, an email change), per user, like failed logins per email. */
  passwordChange: { limit: 5, windowSeconds: 15 * 60 },
} as const satisfies Record<string, ThrottlePolicy>;
