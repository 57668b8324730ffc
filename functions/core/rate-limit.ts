import type { Environment } from './auth/api-key-format.ts';
import type { Principal } from './auth/principal.ts';
import type { Deps } from './deps.ts';
import { RateLimited } from './errors.ts';
import { tiers, type Tier } from './tiers.ts';

/** Requests are counted in fixed windows of one minute, per credential. */
export const rateWindowSeconds = 60;

/** One DynamoDB item takes about 1,000 writes a second; a shard is kept to half of that. */
export const shardWritesPerSecond = 500;

/** What the principal carries and every authenticated response reports. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the current window ends, in Unix seconds. */
  resetAt: number;
}

export interface Allowance {
  /** Requests per window for the credential. */
  limit: number;
  /** Counter items the window is spread over. */
  shards: number;
  /** Requests per window each shard admits. */
  perShard: number;
}

/**
 * The single source of a credential's allowance (README, Rate limits): the tier's
 * requests per minute plus its burst percentage, doubled for test-environment credentials;
 * spread over enough counter items that none takes more than 500 writes a second.
 */
export function allowanceOf(tier: Tier, environment: Environment): Allowance {
  const { requestsPerMinute, burstPercent } = tiers[tier];
  const base = Math.floor((requestsPerMinute * (100 + burstPercent)) / 100);
  const limit = environment === 'test' ? base * 2 : base;
  const shards = Math.max(1, Math.ceil(limit / rateWindowSeconds / shardWritesPerSecond));
  return { limit, shards, perShard: Math.ceil(limit / shards) };
}

/** The counter subject of a credential (and shard): `rate:<type>:<id>[:<shard>]`. */
export const rateSubject = (credential: Principal['credential'], shard = 0) =>
  `rate:${credential.type}:${credential.id}${shard ? `:${shard}` : ''}`;

export function rateWindowOf(now: Date) {
  const start = Math.floor(now.getTime() / 1000 / rateWindowSeconds) * rateWindowSeconds;
  return { start, end: start + rateWindowSeconds };
}

/** The response headers that report a rate-limit state. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetAt),
  };
}

/**
 * The counter update of one request: an atomic ADD on the window's item. Only `ttl` is
 * set, never `prunableAt`, so the item stays out of the pruning index and TTL removes it.
 */
export function counterUpdate(deps: Deps, subject: string, windowStart: number, ttl: number) {
  return deps.db.entities.throttleWindow.update({ subject, windowStart }).add({ count: 1 }).set({ ttl });
}

/**
 * Counts one request of `principal` in the current window (in the authorizer, after
 * authentication) and returns the state to report; throws 429 once the allowance is
 * used. A random shard takes the request; remaining is estimated from that shard's count.
 */
export async function countRequest(deps: Deps, principal: Pick<Principal, 'tier' | 'environment' | 'credential'>): Promise<RateLimitState> {
  const now = deps.clock.now();
  const { limit, shards, perShard } = allowanceOf(principal.tier, principal.environment);
  const { start, end } = rateWindowOf(now);
  const shard = Math.floor(Math.random() * shards); // always 0 for one shard
  // TTL removes the item a window after it ends.
  const { data } = await counterUpdate(deps, rateSubject(principal.credential, shard), start, end + rateWindowSeconds).go({
    originalErr: true, // the hot path's option (store/database.ts), not imported: this module stays store-free
    response: 'updated_new',
  });
  const { count } = data as { count: number }; // the ADD's result: present
  const state = { limit, remaining: Math.max(0, (perShard - count) * shards), resetAt: end };
  // Over the allowance, remaining is already floored at 0.
  if (count > perShard) {
    throw new RateLimited(`Rate limit of ${limit} requests per minute exceeded.`, limit, new Date(end * 1000), now, rateLimitHeaders(state));
  }
  return state;
}
