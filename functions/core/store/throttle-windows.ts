import type { Clock } from '#core/platform/clock';
import { RateLimited } from '#core/platform/errors';
import { isConditionFailure } from './conditions.ts';
import type { Database } from './database.ts';
import { prunableFrom } from './table.ts';

/**
 * Fixed windows of attempts in the table (logins, account mail, test sends): each window an
 * item, counted atomically, gone by TTL. The policies are their contexts' own.
 */
export interface ThrottlePolicy {
  limit: number;
  windowSeconds: number;
}

/** What a throttle window needs: the table, and the time that places a request in a window. */
interface ThrottleDeps {
  db: Database;
  clock: Clock;
}

function windowOf(policy: ThrottlePolicy, now: Date) {
  const start = Math.floor(now.getTime() / 1000 / policy.windowSeconds) * policy.windowSeconds;
  return { start, end: new Date((start + policy.windowSeconds) * 1000) };
}

/**
 * Takes one attempt from `subject`'s current window, atomically: the increment is
 * conditional on the window not being used up, so parallel requests cannot all slip in
 * under the limit. Throws 429 when it is used up.
 */
export async function reserveAttempt(deps: ThrottleDeps, subject: string, policy: ThrottlePolicy, message: string): Promise<void> {
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
export async function refundAttempt(deps: ThrottleDeps, subject: string, policy: ThrottlePolicy): Promise<void> {
  const { start } = windowOf(policy, deps.clock.now());
  await deps.db.entities.throttleWindow.update({ subject, windowStart: start }).add({ count: -1 }).go();
}
