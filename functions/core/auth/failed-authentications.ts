import type { Deps } from '../deps.ts';
import { RateLimited } from '../errors.ts';
import { BoundedCache } from './bounded-cache.ts';
import { clientOf } from './ip-match.ts';

/**
 * Wrong API key secrets a client address may send before it must wait, in fixed windows:
 * per key prefix (one client's mistyped or revoked key locks out that key only), and a
 * higher ceiling over all prefixes (what bounds the bcrypt work one address can cause).
 */
export const failedAuthenticationPolicy = {
  perPrefix: { limit: 20, windowSeconds: 5 * 60 },
  perAddress: { limit: 100, windowSeconds: 5 * 60 },
} as const;

type Policy = (typeof failedAuthenticationPolicy)[keyof typeof failedAuthenticationPolicy];

interface Subject {
  key: string;
  policy: Policy;
  message: string;
}

function windowOf({ windowSeconds }: Policy, now: Date) {
  const start = Math.floor(now.getTime() / 1000 / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

function subjectsOf(sourceIp: string, prefix: string): [Subject, Subject] {
  const client = clientOf(sourceIp);
  const { perPrefix, perAddress } = failedAuthenticationPolicy;
  return [
    {
      key: `authfail:${client}:${prefix}`,
      policy: perPrefix,
      message: `Too many wrong secrets for the API key ${prefix}… from this address: at most ${perPrefix.limit} in ${perPrefix.windowSeconds / 60} minutes. Retry later; other keys are not affected.`,
    },
    {
      key: `authfail:${client}`,
      policy: perAddress,
      message: `Too many wrong API key secrets from this address: at most ${perAddress.limit} in ${perAddress.windowSeconds / 60} minutes, over all keys. Until the window ends, a key not in use from here yet waits too, even a right one; keys in use keep working.`,
    },
  ];
}

/** Subjects known to have used up their window, until the window ends (ms). */
const blocked = new BoundedCache<number>(10_000);

function refuseIfBlocked(subject: Subject, now: Date): void {
  const until = blocked.get(subject.key);
  if (until === undefined || until <= now.getTime()) return;
  throw new RateLimited(subject.message, subject.policy.limit, new Date(until), now);
}

function noteCount(subject: Subject, count: number | undefined, now: Date): void {
  if ((count ?? 0) < subject.policy.limit) return;
  blocked.set(subject.key, windowOf(subject.policy, now).end * 1000);
}

/** Reads both subjects' failures of this window from the table in one call (other processes count too). */
async function consultTable(deps: Deps, subjects: readonly Subject[], now: Date): Promise<void> {
  const { data } = await deps.db.entities.throttleWindow
    .get(subjects.map((s) => ({ subject: s.key, windowStart: windowOf(s.policy, now).start })))
    .go({ originalErr: true });
  for (const subject of subjects) {
    const start = windowOf(subject.policy, now).start;
    noteCount(subject, data.find((item) => item.subject === subject.key && item.windowStart === start)?.count, now);
    refuseIfBlocked(subject, now);
  }
}

/**
 * Counts one failure of a subject. Only `ttl` is set, as on the rate-limit counters, so the
 * item stays out of the pruning index and TTL removes it; reads only ask for the current window.
 */
async function countFailure(deps: Deps, subject: Subject, now: Date): Promise<void> {
  const { start, end } = windowOf(subject.policy, now);
  const { data } = await deps.db.entities.throttleWindow
    .update({ subject: subject.key, windowStart: start })
    .add({ count: 1 })
    .set({ ttl: end })
    .go({ originalErr: true, response: 'updated_new' });
  noteCount(subject, (data as { count: number }).count, now);
}

/**
 * Guards a bcrypt comparison of a secret against the keys found by its prefix. Only this
 * costs anything worth bounding: an unknown prefix, a revoked or expired key, a token or a
 * session is refused without one, counts nowhere and locks nobody out. Before the compare,
 * the per-prefix and per-address windows are read (in this process first, then the table),
 * and a used-up window answers 429 with Retry-After; after a mismatch both are counted.
 * A success writes nothing, and a credential already verified by this process never
 * comes here, so a key in use keeps working from an address that is throttled.
 */
export async function guardedCompare<L>(
  deps: Deps,
  request: { sourceIp: string; prefix: string },
  compare: () => Promise<L | undefined>,
): Promise<L | undefined> {
  const subjects = subjectsOf(request.sourceIp, request.prefix);
  const now = deps.clock.now();
  for (const subject of subjects) refuseIfBlocked(subject, now);
  await consultTable(deps, subjects, now);
  const found = await compare();
  if (!found) await Promise.all(subjects.map((subject) => countFailure(deps, subject, now)));
  return found;
}
