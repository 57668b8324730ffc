import type { Deps } from '../deps.ts';
import { RateLimited } from '../errors.ts';
import { isConditionFailure } from '../store/conditions.ts';
import { BoundedCache } from './bounded-cache.ts';
import { clientOf } from './ip-match.ts';

/**
 * Wrong API key secrets a client address may send before it must wait, in fixed windows of
 * the clock: per key prefix (one client's mistyped or revoked key locks out that key only),
 * and a higher ceiling over all prefixes (what bounds the bcrypt work one address can cause).
 * A prefix that verified from the address lately (`knownFor`) is held to its own window only.
 */
export const failedAuthenticationPolicy = {
  perPrefix: { limit: 20, windowSeconds: 5 * 60 },
  perAddress: { limit: 100, windowSeconds: 5 * 60 },
  knownForSeconds: 24 * 3600,
} as const;

interface Window {
  limit: number;
  windowSeconds: number;
}

interface Subject {
  key: string;
  policy: Window;
  message: string;
}

function windowOf({ windowSeconds }: Pick<Window, 'windowSeconds'>, now: Date) {
  const start = Math.floor(now.getTime() / 1000 / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

function subjectsOf(client: string, prefix: string): [Subject, Subject] {
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
/** Prefixes known to have verified from an address, by `authok:<client>:<prefix>`, until when (ms). */
const knownHere = new BoundedCache<number>(10_000);

function refuseIfBlocked(subject: Subject, now: Date): void {
  const until = blocked.get(subject.key);
  if (until === undefined || until <= now.getTime()) return;
  throw new RateLimited(subject.message, subject.policy.limit, new Date(until), now);
}

function refuse(subject: Subject, now: Date): never {
  const end = windowOf(subject.policy, now).end * 1000;
  blocked.set(subject.key, end);
  throw new RateLimited(subject.message, subject.policy.limit, new Date(end), now);
}

/**
 * Takes one attempt from the subject's window before the compare: an atomic ADD on
 * condition that the window has room, so however many requests race, no more compares run
 * than the limit allows. Only `ttl` is set, as on the rate-limit counters, so the item stays
 * out of the pruning index and TTL removes it. False when the window is used up.
 */
async function reserve(deps: Deps, subject: Subject, now: Date): Promise<boolean> {
  const { start, end } = windowOf(subject.policy, now);
  try {
    await deps.db.entities.throttleWindow
      .update({ subject: subject.key, windowStart: start })
      .add({ count: 1 })
      .set({ ttl: end })
      .where((attr, op) => `${op.notExists(attr.count)} OR ${op.lt(attr.count, subject.policy.limit)}`)
      .go({ originalErr: true, response: 'none' });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Gives an attempt back: a compare that succeeded was no failure. */
async function refund(deps: Deps, subject: Subject, now: Date): Promise<void> {
  const { start } = windowOf(subject.policy, now);
  await deps.db.entities.throttleWindow
    .update({ subject: subject.key, windowStart: start })
    .add({ count: -1 })
    .go({ originalErr: true, response: 'none' });
}

const knownKey = (client: string, prefix: string) => `authok:${client}:${prefix}`;

/** Has the prefix verified from the address within the last day (this process's memory, else the table)? */
async function isKnownHere(deps: Deps, key: string, now: Date): Promise<boolean> {
  if ((knownHere.get(key) ?? 0) > now.getTime()) return true;
  const { start, end } = windowOf({ windowSeconds: failedAuthenticationPolicy.knownForSeconds }, now);
  const { data } = await deps.db.entities.throttleWindow.get({ subject: key, windowStart: start }).go({ originalErr: true, consistent: true });
  if (data) knownHere.set(key, end * 1000);
  return !!data;
}

async function rememberKnown(deps: Deps, key: string, now: Date): Promise<void> {
  if ((knownHere.get(key) ?? 0) > now.getTime()) return;
  const { start, end } = windowOf({ windowSeconds: failedAuthenticationPolicy.knownForSeconds }, now);
  await deps.db.entities.throttleWindow.put({ subject: key, windowStart: start, count: 1, ttl: end }).go({ originalErr: true, response: 'none' });
  knownHere.set(key, end * 1000);
}

/**
 * Guards a bcrypt comparison of a secret against the keys found by its prefix. Only this
 * costs anything worth bounding: an unknown prefix, a revoked or expired key, a token or a
 * session is refused without one, counts nowhere and locks nobody out.
 *
 * Each compare first takes an attempt from the prefix's window and the address's, both
 * atomically conditioned on room (so racing requests cannot all slip in); a used-up window
 * answers 429 with Retry-After, before any bcrypt. A success gives its attempts back (it was
 * no failure) and marks the prefix as known at the address for a day: a known prefix is held
 * to its own window only, so a tenant's key that works from a shared address keeps working
 * there, in any process, while others exhaust the address's ceiling. A credential already
 * verified by this process never comes here at all.
 */
export async function guardedCompare<L>(
  deps: Deps,
  request: { sourceIp: string; prefix: string },
  compare: () => Promise<L | undefined>,
): Promise<L | undefined> {
  const client = clientOf(request.sourceIp);
  const [prefixWindow, addressWindow] = subjectsOf(client, request.prefix);
  const known = knownKey(client, request.prefix);
  const now = deps.clock.now();
  refuseIfBlocked(prefixWindow, now);
  // Known to be spent in this process: a prefix that is not known here waits without a write.
  if ((blocked.get(addressWindow.key) ?? 0) > now.getTime() && !(await isKnownHere(deps, known, now))) refuseIfBlocked(addressWindow, now);
  const [prefixTaken, addressTaken] = await Promise.all([reserve(deps, prefixWindow, now), reserve(deps, addressWindow, now)]);
  if (!prefixTaken) {
    if (addressTaken) await refund(deps, addressWindow, now);
    refuse(prefixWindow, now);
  }
  if (!addressTaken && !(await isKnownHere(deps, known, now))) {
    await refund(deps, prefixWindow, now);
    refuse(addressWindow, now);
  }
  const found = await compare();
  if (found) {
    await Promise.all([refund(deps, prefixWindow, now), ...(addressTaken ? [refund(deps, addressWindow, now)] : []), rememberKnown(deps, known, now)]);
  }
  return found;
}
