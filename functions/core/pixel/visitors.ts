import { createHmac } from 'node:crypto';
import type { Clock } from '#core/platform/clock';
import { sharedKey } from '#core/platform/config';
import type { Database } from '#core/store/database';
import { reserveAttempt, type ThrottlePolicy } from '#core/store/throttle-windows';

/**
 * Who a pixel request comes from, without keeping who it is: no raw address is ever
 * written. Every hash is keyed with PIXEL_HASH_KEY (config.ts); the visitor hash with a key
 * derived from it and the UTC date, never stored, so the same visitor hashes differently
 * each day and cannot be followed from one day to the next.
 */

/** The spec's limit for POST /pixel/track: per client address, across every process (a window item in the table). */
export const trackLimit: ThrottlePolicy = { limit: 300, windowSeconds: 60 };

const serverKey = () => sharedKey('PIXEL_HASH_KEY');

const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** The UTC day of an instant, `YYYY-MM-DD`: the unit of sessions and rollups. */
export const dayOf = (instant: Date): string => instant.toISOString().slice(0, 10);

/** Each day's key, derived when first needed (a process sees a day or two). */
let todays: { day: string; key: Buffer } | undefined;
function dayKey(day: string): Buffer {
  if (todays?.day !== day) todays = { day, key: hmac(serverKey(), `pixel visitor day ${day}`) };
  return todays.key;
}

/**
 * A visitor of a site on a day: the address and user agent hashed with that day's key
 * (128 bits, base64url). What sessions are counted by.
 */
export const visitorOf = (day: string, host: string, address: string, userAgent: string): string =>
  hmac(dayKey(day), `${host}\n${address}\n${userAgent}`).subarray(0, 16).toString('base64url');

/** Takes one request from the client address's window: 429 with Retry-After beyond the limit. */
export function reserveTrackRequest(deps: { db: Database; clock: Clock }, address: string): Promise<void> {
  const subject = `pixel:${hmac(serverKey(), `pixel address ${address}`).subarray(0, 16).toString('base64url')}`;
  return reserveAttempt(deps, subject, trackLimit, `Too many tracking requests from this address: at most ${trackLimit.limit} a minute.`);
}
