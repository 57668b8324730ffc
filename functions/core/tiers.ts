/**
 * The tier table: the one place that says what a tier is allowed. The request limiter,
 * entitlement limits and the API Gateway usage plans all read it.
 * Per-minute limits are DECISIONS.md's choice of the spec's minute table.
 */
export const tiers = {
  free: { requestsPerMinute: 60, burstPercent: 0 },
  starter: { requestsPerMinute: 1_000, burstPercent: 20 },
  pro: { requestsPerMinute: 5_000, burstPercent: 30 },
  business: { requestsPerMinute: 10_000, burstPercent: 40 },
  agency: { requestsPerMinute: 20_000, burstPercent: 50 },
  enterprise: { requestsPerMinute: 100_000, burstPercent: 100 },
} as const;

export type Tier = keyof typeof tiers;

export const tierNames = Object.keys(tiers) as [Tier, ...Tier[]];

export const defaultTier: Tier = 'free';

/** Is `tier` above `ceiling` in the table's order (free lowest, enterprise highest)? */
export const tierAbove = (tier: Tier, ceiling: Tier): boolean => tierNames.indexOf(tier) > tierNames.indexOf(ceiling);
