import { config } from '#core/platform/config';
import { FeatureLimitReached } from '#core/platform/errors';
import { monthlyCounterTtl, monthOf } from '#core/platform/periods';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import type { Database } from '#core/store/database';
import type { EntitlementScope } from './entitlement-scope.ts';
import { type Feature, features } from './features.ts';
import { limitOf } from './limits.ts';
import { counterKey } from './usage.ts';

type WriteTransaction = Parameters<Database['transaction']['write']>[0];
/** The usage counter entity as a transaction's callback receives it. */
type TransactionUsageCounter = Parameters<WriteTransaction>[0]['usageCounter'];

/**
 * What a create of a limited thing (an API key, a webhook, a post, an SEO report) does to its feature's
 * count, in the same transaction as the create: +1, on condition that the count is below
 * the limit, so racing creates can never pass it. `limit` null: unlimited, no condition.
 */
/** What +1 of a feature sets besides: a month's count (SEO reports, MCP calls) lapses like a client's report of one (recording.ts). */
const lapseOf = (feature: Feature, now: Date) => (features[feature].period === 'month' ? { ttl: monthlyCounterTtl(monthOf(now)) } : {});

/** The condition that holds +1 within the limit. */
const belowLimit =
  (limit: number) =>
  <A extends { used: unknown }>(attr: A, op: { notExists(a: A['used']): string; lt(a: A['used'], v: number): string }) =>
    `${op.notExists(attr.used)} OR ${op.lt(attr.used, limit)}`;

export function countOneMoreWithin(
  usageCounter: TransactionUsageCounter,
  scope: EntitlementScope,
  feature: Feature,
  limit: number | null,
  now: Date,
) {
  const update = usageCounter
    .update(counterKey(scope, feature, now))
    .add({ used: 1 })
    .set(lapseOf(feature, now));
  return limit === null ? update.commit() : update.where(belowLimit(limit)).commit();
}

/**
 * One use of a feature counted on its own, not with a create (an MCP tool call): +1 on
 * condition that the count is below the limit; at the limit, 403 feature_limit_reached.
 */
export async function countOneUse(deps: Deps, scope: EntitlementScope, feature: Feature): Promise<void> {
  const now = deps.clock.now();
  await withinLimit(deps, scope, feature, (limit) => {
    const update = deps.db.entities.usageCounter
      .update(counterKey(scope, feature, now))
      .add({ used: 1 })
      .set(lapseOf(feature, now));
    return limit === null ? update.go() : update.where(belowLimit(limit)).go();
  });
}

type CounterOwner = Pick<EntitlementScope, 'ownerType' | 'ownerId' | 'environment'>;

/** -1 with the delete of a limited thing. Unconditional: reads floor a count at 0. */
export const countOneFewerOf = (usageCounter: TransactionUsageCounter, owner: CounterOwner, feature: Feature, now: Date) =>
  usageCounter
    .update(counterKey(owner, feature, now))
    .add({ used: -1 })
    .commit();

/** The limit a create is held to now. */
export const limitNow = (scope: EntitlementScope, feature: Feature, now: Date) => limitOf(scope.tier, feature, scope.packages, now);

/** What the scope has of a feature now, by its usage counter (strongly consistent). */
export async function usedOf(deps: Deps, scope: EntitlementScope, feature: Feature, now: Date): Promise<number> {
  const { data } = await deps.db.entities.usageCounter.get(counterKey(scope, feature, now)).go({ consistent: true });
  return Math.max(0, data?.used ?? 0);
}

/** Refuses one more of a feature already at its limit: 403 feature_limit_reached. */
export function requireBelow(feature: Feature, limit: number | null, used: number): void {
  if (limit !== null && used >= limit) throw new FeatureLimitReached(feature, limit, used, config().UPGRADE_URL);
}

/**
 * Runs a create whose transaction holds a count conditioned on the limit (as
 * countOneMoreWithin): a cancelled transaction whose count has reached the limit is 403
 * feature_limit_reached; any other failure is the create's own. `used` reads the count
 * where it is not the scope's usage counter (members: the workspace's member count).
 */
export async function withinLimit<T>(
  deps: Deps,
  scope: EntitlementScope,
  feature: Feature,
  create: (limit: number | null) => Promise<T>,
  used: () => Promise<number> = () => usedOf(deps, scope, feature, deps.clock.now()),
): Promise<T> {
  const limit = limitNow(scope, feature, deps.clock.now());
  try {
    return await create(limit);
  } catch (error) {
    if (limit === null || !isConditionFailure(error)) throw error;
    requireBelow(feature, limit, await used());
    throw error;
  }
}
