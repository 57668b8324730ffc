import { prunableFrom } from '#core/store/table';

/**
 * The lifecycle of stored credentials (API keys, user tokens), in one place for the
 * authorizer, the domain and the pruner: when a record still exists and how long an
 * expired one is kept. What a credential may hand on to the credentials it creates or
 * rotates is issuance-limits.ts (apart, so that the authorizer bundles none of it).
 */

/** How long an expired key or token is kept (answering TOKEN_EXPIRED) before TTL may drop it. */
export const expiredRetentionSeconds = 30 * 24 * 3600;

/**
 * A record that still exists: not past its grace period (a rotated key) nor its TTL, which
 * DynamoDB honours only some time later. Revoked credentials are deleted. The lists filter
 * by the same rule in their Query (api-keys.ts, user-tokens.ts).
 */
export function isLive(item: { graceEndsAt?: string; ttl?: number }, now: Date): boolean {
  if (item.graceEndsAt && Date.parse(item.graceEndsAt) <= now.getTime()) return false;
  return item.ttl === undefined || item.ttl * 1000 > now.getTime();
}

export const hasExpired = (expiresAt: string | undefined, now: Date): boolean => !!expiresAt && Date.parse(expiresAt) <= now.getTime();

/** The TTL and pruning mark of a credential that expires at `expiresAt` (none without an expiry). */
export function retentionOf(expiresAt: string | undefined) {
  const ttl = expiresAt ? Math.floor(Date.parse(expiresAt) / 1000) + expiredRetentionSeconds : undefined;
  return { ttl, prunableAt: ttl === undefined ? undefined : prunableFrom(ttl) };
}
