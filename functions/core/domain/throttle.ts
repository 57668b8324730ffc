import type { Deps } from '../deps.ts';
import { RateLimited } from '../errors.ts';
import { prunableFrom } from '../store/table.ts';

export interface ThrottlePolicy {
  limit: number;
  windowSeconds: number;
}

/** Failed logins: five per email and twenty per client address in fifteen minutes. */
export const loginThrottles = {
  email: { limit: 5, windowSeconds: 15 * 60 },
  address: { limit: 20, windowSeconds: 15 * 60 },
} as const satisfies Record<string, ThrottlePolicy>;

function windowOf(policy: ThrottlePolicy, now: Date) {
  const start = Math.floor(now.getTime() / 1000 / policy.windowSeconds) * policy.windowSeconds;
  return { start, end: new Date((start + policy.windowSeconds) * 1000) };
}

/** Throws 429 once `subject` has used up its window. A window past its TTL counts as empty. */
export async function checkThrottle(deps: Deps, subject: string, policy: ThrottlePolicy, message: string): Promise<void> {
  const now = deps.clock.now();
  const { start, end } = windowOf(policy, now);
  const { data } = await deps.db.entities.throttleWindow.get({ subject, windowStart: start }).go({ consistent: true });
  if (data && data.ttl * 1000 > now.getTime() && data.count >= policy.limit) {
    throw new RateLimited(message, policy.limit, end, now);
  }
}

export async function countAgainst(deps: Deps, subject: string, policy: ThrottlePolicy): Promise<void> {
  const { start, end } = windowOf(policy, deps.clock.now());
  const ttl = Math.floor(end.getTime() / 1000);
  await deps.db.entities.throttleWindow
    .update({ subject, windowStart: start })
    .add({ count: 1 })
    .set({ ttl, prunableAt: prunableFrom(ttl) })
    .go();
}
