import { BoundedCache } from '#core/platform/bounded-cache';
import { RateLimited } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import { clientOf } from './ip-match.ts';

/**
 * Wrong API key secrets an address may send per window (docs/authentication.md, Failed
 * authentications): per prefix, so that a mistyped key locks out only itself, and a ceiling
 * over all prefixes that bounds the address's bcrypt work. A prefix that verified there lately
 * goes on past it (`pastCeiling`), so that tenants behind a shared address keep working.
 */
export const failedAuthenticationPolicy = {
  perPrefix: { limit: 20, windowSeconds: 5 * 60 },
  perAddress: { limit: 100, windowSeconds: 5 * 60 },
  pastCeiling: { limit: 100, windowSeconds: 5 * 60 },
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

function subjectsOf(client: string, prefix: string): [Subject, Subject, Subject] {
  const { perPrefix, perAddress, pastCeiling } = failedAuthenticationPolicy;
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
    {
      key: `authknown:${client}`,
      policy: pastCeiling,
      message: `Too many wrong API key secrets from this address, for new keys and for keys in use alike: wait until the window ends.`,
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
async function reserve(deps: Deps, subject: Subject, now: Date): Promise<number | undefined> {
  const { start, end } = windowOf(subject.policy, now);
  try {
    const { data } = await deps.db.entities.throttleWindow
      .update({ subject: subject.key, windowStart: start })
      .add({ count: 1 })
      .set({ ttl: end })
      .where((attr, op) => `${op.notExists(attr.count)} OR ${op.lt(attr.count, subject.policy.limit)}`)
      .go({ originalErr: true, response: 'updated_new' });
    return (data as { count: number }).count;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
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
  const { data } = await deps.db.entities.throttleWindow
    .get({ subject: key, windowStart: start })
    .go({ originalErr: true, consistent: true });
  if (data) knownHere.set(key, end * 1000);
  return !!data;
}

async function rememberKnown(deps: Deps, key: string, now: Date): Promise<void> {
  if ((knownHere.get(key) ?? 0) > now.getTime()) return;
  const { start, end } = windowOf({ windowSeconds: failedAuthenticationPolicy.knownForSeconds }, now);
  await deps.db.entities.throttleWindow
    .put({ subject: key, windowStart: start, count: 1, ttl: end })
    .go({ originalErr: true, response: 'none' });
  knownHere.set(key, end * 1000);
}

/**
 * Guards a bcrypt comparison, the one failure worth bounding: each compare first takes an
 * attempt from the prefix's and the address's windows, conditioned on room, so that racing
 * requests cannot all slip in. A success gives its attempts back and marks the prefix as known
 * at the address.
 */
export async function guardedCompare<L>(
  deps: Deps,
  request: { sourceIp: string; prefix: string },
  compare: () => Promise<L | undefined>,
): Promise<L | undefined> {
  const client = clientOf(request.sourceIp);
  const [prefixWindow, addressWindow, pastCeiling] = subjectsOf(client, request.prefix);
  const known = knownKey(client, request.prefix);
  const now = deps.clock.now();
  refuseIfBlocked(prefixWindow, now);
  // Known to be spent in this process: a prefix that is not known here waits without a write.
  if ((blocked.get(addressWindow.key) ?? 0) > now.getTime() && !(await isKnownHere(deps, known, now))) refuseIfBlocked(addressWindow, now);
  const [prefixCount, addressCount] = await Promise.all([reserve(deps, prefixWindow, now), reserve(deps, addressWindow, now)]);
  const taken = [...(prefixCount !== undefined ? [prefixWindow] : []), ...(addressCount !== undefined ? [addressWindow] : [])];
  const giveBack = (subjects: readonly Subject[]) => Promise.all(subjects.map((subject) => refund(deps, subject, now)));
  if (prefixCount === undefined) {
    await giveBack(taken);
    refuse(prefixWindow, now);
  }
  if (addressCount === undefined) {
    const isKnown = await isKnownHere(deps, known, now);
    if (!isKnown || (await reserve(deps, pastCeiling, now)) === undefined) {
      await giveBack(taken);
      refuse(isKnown ? pastCeiling : addressWindow, now);
    }
    taken.push(pastCeiling);
  }
  const found = await compare();
  if (found) await Promise.all([giveBack(taken), rememberKnown(deps, known, now)]);
  return found;
}
