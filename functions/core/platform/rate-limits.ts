import type { Environment } from './environments.ts';
import { type Tier, tiers } from './tiers.ts';

/** Requests are counted in fixed windows of one minute, per subject (metering/usage-meter.ts). */
export const rateWindowSeconds = 60;

/** One DynamoDB item takes about 1,000 writes a second; a shard is kept to half of that. */
const shardWritesPerSecond = 500;

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
 * The single source of a credential's allowance (docs/tenancy-and-limits.md, Rate limits): the tier's
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
