import type { Deps } from '../deps.ts';
import { RateLimited } from '../errors.ts';
import { BoundedCache } from './bounded-cache.ts';
import { clientOf } from './ip-match.ts';

/** Failed authentications a client address may make in a window before it must wait. */
export const failedAuthenticationPolicy = { limit: 20, windowSeconds: 5 * 60 } as const;

const { limit, windowSeconds } = failedAuthenticationPolicy;

function windowOf(now: Date) {
  const start = Math.floor(now.getTime() / 1000 / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

/** Addresses known to have used up their window, until the window ends (ms). */
const blockedAddresses = new BoundedCache<number>(10_000);
/** Secrets refused lately, by digest, until when (ms): refused again without a lookup or a bcrypt. */
const recentlyRefused = new BoundedCache<number>(10_000);

function refuseIfBlocked(subject: string, now: Date): void {
  const until = blockedAddresses.get(subject);
  if (until === undefined || until <= now.getTime()) return;
  throw new RateLimited(
    `Too many failed authentications from this address: at most ${limit} in ${windowSeconds / 60} minutes. Retry later.`,
    limit,
    new Date(until),
    now,
  );
}

function block(subject: string, windowEnd: number, now: Date): void {
  blockedAddresses.set(subject, windowEnd * 1000);
  refuseIfBlocked(subject, now);
}

/** Reads the address's failures of this window from the table (other processes count too). */
async function consultTable(deps: Deps, subject: string, now: Date): Promise<void> {
  const { start, end } = windowOf(now);
  const { data } = await deps.db.entities.throttleWindow.get({ subject, windowStart: start }).go({ originalErr: true });
  if (data && data.count >= limit) block(subject, end, now);
}

/**
 * Counts one failure of the address. Only `ttl` is set, as on the rate-limit counters,
 * so the item stays out of the pruning index and TTL removes it; reads only ever ask for
 * the current window.
 */
async function countFailure(deps: Deps, subject: string, now: Date): Promise<void> {
  const { start, end } = windowOf(now);
  const { data } = await deps.db.entities.throttleWindow
    .update({ subject, windowStart: start })
    .add({ count: 1 })
    .set({ ttl: end })
    .go({ originalErr: true, response: 'updated_new' });
  if ((data as { count: number }).count >= limit) blockedAddresses.set(subject, end * 1000);
}

/**
 * Throttles guessing, per client address, at no cost to requests that succeed: only a
 * credential this process has not verified passes here. A blocked address gets 429 with
 * Retry-After; a secret refused lately is refused again at once and not counted twice;
 * before a costly check (bcrypt) the address's failures are read from the table, so that
 * no process spends bcrypt on an address that is over its limit elsewhere. Only failures
 * are written, so a successful request costs no write here.
 */
export async function throttledLookup<L>(
  deps: Deps,
  sourceIp: string,
  digest: string,
  costly: boolean,
  locate: () => Promise<L | undefined>,
): Promise<L | undefined> {
  const subject = `authfail:${clientOf(sourceIp)}`;
  const now = deps.clock.now();
  refuseIfBlocked(subject, now);
  if ((recentlyRefused.get(digest) ?? 0) > now.getTime()) return undefined;
  if (costly) await consultTable(deps, subject, now);
  const found = await locate();
  if (!found) {
    recentlyRefused.set(digest, now.getTime() + windowSeconds * 1000);
    await countFailure(deps, subject, now);
  }
  return found;
}
