import type { Deps } from '#core/ports/deps';
import { RateLimited } from '#core/platform/errors';
import { isConditionFailure } from './conditions.ts';
import { prunableFrom } from './table.ts';

export interface ThrottlePolicy {
  limit: number;
  windowSeconds: number;
}

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

/**
 * Test sends per webhook endpoint (POST /webhooks/{id}/test): each is a request to the
 * endpoint's host and port made at once, so without a limit the route would probe them.
 */
export const webhookTestThrottle = { limit: 10, windowSeconds: 60 } as const satisfies ThrottlePolicy;

function windowOf(policy: ThrottlePolicy, now: Date) {
  const start = Math.floor(now.getTime() / 1000 / policy.windowSeconds) * policy.windowSeconds;
  return { start, end: new Date((start + policy.windowSeconds) * 1000) };
}

/**
 * Takes one attempt from `subject`'s current window, atomically: the increment is
 * conditional on the window not being used up, so parallel requests cannot all slip in
 * under the limit. Throws 429 when it is used up.
 */
export async function reserveAttempt(deps: Deps, subject: string, policy: ThrottlePolicy, message: string): Promise<void> {
  const now = deps.clock.now();
  const { start, end } = windowOf(policy, now);
  const ttl = Math.floor(end.getTime() / 1000);
  try {
    await deps.db.entities.throttleWindow
      .update({ subject, windowStart: start })
      .add({ count: 1 })
      .set({ ttl, prunableAt: prunableFrom(ttl) })
      .where((attr, op) => `${op.notExists(attr.count)} OR ${op.lt(attr.count, policy.limit)}`)
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw new RateLimited(message, policy.limit, end, now);
  }
}

/** Gives an attempt back (a login that succeeded does not count as a failure). */
export async function refundAttempt(deps: Deps, subject: string, policy: ThrottlePolicy): Promise<void> {
  const { start } = windowOf(policy, deps.clock.now());
  await deps.db.entities.throttleWindow.update({ subject, windowStart: start }).add({ count: -1 }).go();
}
