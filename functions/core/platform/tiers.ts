/**
 * The tier table, the one place that says what a tier is allowed: the rate limiter, the
 * entitlements, the concurrency leases and the usage plans all read it. The per-minute limits
 * are docs/decisions.md's choice of the spec's table, the others ours; `null` is unlimited.
 */
const MB = 1024 * 1024;
const GB = 1024 * MB;

export const tiers = {
  free: {
    concurrentCalls: 2,
    requestsPerMinute: 60,
    burstPercent: 0,
    entitlements: {
      api_calls: 10_000,
      posts: 100,
      storage: 100 * MB,
      api_keys: 5,
      webhooks: 2,
      members: 3,
      seo_reports: 10,
      mcp_calls: 1_000,
      workspaces: 3,
    },
  },
  starter: {
    concurrentCalls: 5,
    requestsPerMinute: 1_000,
    burstPercent: 20,
    entitlements: {
      api_calls: 100_000,
      posts: 1_000,
      storage: 1 * GB,
      api_keys: 10,
      webhooks: 5,
      members: 10,
      seo_reports: 100,
      mcp_calls: 10_000,
      workspaces: 10,
    },
  },
  pro: {
    concurrentCalls: 10,
    requestsPerMinute: 5_000,
    burstPercent: 30,
    entitlements: {
      api_calls: 1_000_000,
      posts: 10_000,
      storage: 10 * GB,
      api_keys: 25,
      webhooks: 20,
      members: 25,
      seo_reports: 1_000,
      mcp_calls: 100_000,
      workspaces: 25,
    },
  },
  business: {
    concurrentCalls: 20,
    requestsPerMinute: 10_000,
    burstPercent: 40,
    entitlements: {
      api_calls: 5_000_000,
      posts: 50_000,
      storage: 50 * GB,
      api_keys: 50,
      webhooks: 50,
      members: 50,
      seo_reports: 5_000,
      mcp_calls: 500_000,
      workspaces: 50,
    },
  },
  agency: {
    concurrentCalls: 50,
    requestsPerMinute: 20_000,
    burstPercent: 50,
    entitlements: {
      api_calls: 10_000_000,
      posts: 100_000,
      storage: 100 * GB,
      api_keys: 100,
      webhooks: 100,
      members: 100,
      seo_reports: 10_000,
      mcp_calls: 1_000_000,
      workspaces: 100,
    },
  },
  enterprise: {
    concurrentCalls: 100,
    requestsPerMinute: 100_000,
    burstPercent: 100,
    entitlements: {
      api_calls: null,
      posts: null,
      storage: null,
      api_keys: 1_000,
      webhooks: 1_000,
      members: 1_000,
      seo_reports: null,
      mcp_calls: null,
      workspaces: null,
    },
  },
} as const satisfies Record<
  string,
  { concurrentCalls: number; requestsPerMinute: number; burstPercent: number; entitlements: Record<string, number | null> }
>;

export type Tier = keyof typeof tiers;

export const tierNames = Object.keys(tiers) as [Tier, ...Tier[]];

export const defaultTier: Tier = 'free';

/** Is `tier` above `ceiling` in the table's order (free lowest, enterprise highest)? */
export const tierAbove = (tier: Tier, ceiling: Tier): boolean => tierNames.indexOf(tier) > tierNames.indexOf(ceiling);
