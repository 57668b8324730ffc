import { allowanceOf, rateLimitHeaders, rateWindowOf } from '#core/platform/rate-limits';
import { tierNames, tiers } from '#core/platform/tiers';

describe('the rate-limit allowance', () => {
  it('is the tier per minute plus its burst', () => {
    expect(allowanceOf('free', 'live')).toEqual({ limit: 60, shards: 1, perShard: 60 });
    expect(allowanceOf('starter', 'live').limit).toBe(1_200);
    expect(allowanceOf('pro', 'live').limit).toBe(6_500);
    expect(allowanceOf('business', 'live').limit).toBe(14_000);
    expect(allowanceOf('agency', 'live').limit).toBe(30_000);
    expect(allowanceOf('enterprise', 'live').limit).toBe(200_000);
  });

  it('doubles for test-environment credentials', () => {
    expect(allowanceOf('free', 'test').limit).toBe(120);
    for (const tier of tierNames) expect(allowanceOf(tier, 'test').limit).toBe(2 * allowanceOf(tier, 'live').limit);
  });

  it('floors a fractional burst', () => {
    // No tier has one today; the rule is floor(rpm * (1 + burst/100)).
    for (const tier of tierNames) {
      const { requestsPerMinute, burstPercent } = tiers[tier];
      expect(allowanceOf(tier, 'live').limit).toBe(Math.floor(requestsPerMinute * (1 + burstPercent / 100)));
    }
  });

  it('shards the counter so no item takes more than 500 writes a second', () => {
    expect(allowanceOf('agency', 'test')).toEqual({ limit: 60_000, shards: 2, perShard: 30_000 });
    expect(allowanceOf('enterprise', 'live')).toEqual({ limit: 200_000, shards: 7, perShard: 28_572 });
    expect(allowanceOf('enterprise', 'test')).toEqual({ limit: 400_000, shards: 14, perShard: 28_572 });
    for (const tier of tierNames) {
      for (const environment of ['live', 'test'] as const) {
        const { limit, shards, perShard } = allowanceOf(tier, environment);
        expect(perShard / 60).toBeLessThanOrEqual(500);
        expect(perShard * shards).toBeGreaterThanOrEqual(limit);
        expect(shards).toBe(Math.max(1, Math.ceil(limit / 60 / 500)));
      }
    }
  });

  it('counts in one-minute windows and reports Unix seconds', () => {
    expect(rateWindowOf(new Date('2026-03-01T10:00:59.999Z'))).toEqual({ start: 1772359200, end: 1772359260 });
    expect(rateLimitHeaders({ limit: 60, remaining: 5, resetAt: 1772359260 })).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '5',
      'X-RateLimit-Reset': '1772359260',
    });
  });
});
