import type * as z from 'zod/mini';
import { config } from '#core/platform/config';
import { ValidationFailed } from '#core/platform/errors';
import { monthlyCounterTtl, monthOf } from '#core/platform/periods';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import { madeInOpenWorkspace } from '#core/tenancy/workspace-open';
import type { usageBody, usageRecorded } from './entitlement-schemas.ts';
import type { EntitlementScope } from './entitlement-scope.ts';
import { countsOf, standing } from './entitlements.ts';
import { features } from './features.ts';
import { limitOf } from './limits.ts';
import { counterKey, forgetUsage } from './usage.ts';

export type UsageRecord = z.output<typeof usageBody>;

/** A client's report of what it used (POST /entitlements/usage), checked against what it may report. */
function requireRecordable({ feature, quantity }: UsageRecord): void {
  if (!features[feature].recordable) {
    throw new ValidationFailed({ feature: [`${feature} is counted by the service itself; report storage`] });
  }
  if (quantity < 0 && features[feature].period !== 'total') {
    throw new ValidationFailed({ quantity: [`must be positive: ${feature} counts what was used this month, which cannot be given back`] });
  }
}

/**
 * Records usage atomically: one conditional ADD, so that however many reports race the
 * count never passes the limit (nor drops below 0 when storage is released). A report
 * that would pass it is refused with `recorded: false` and counts nothing.
 */
export async function recordUsage(deps: Deps, scope: EntitlementScope, record: UsageRecord): Promise<z.output<typeof usageRecorded>> {
  requireRecordable(record);
  const { feature, quantity, metadata } = record;
  const now = deps.clock.now();
  const limit = limitOf(scope.tier, feature, scope.packages, now);
  // Unlimited still stops at the largest count a number holds exactly.
  const ceiling = limit ?? Number.MAX_SAFE_INTEGER;
  const key = counterKey(scope, feature, now);
  const monthly = features[feature].period === 'month';
  let recorded = quantity <= ceiling;
  let used: number | undefined;
  if (recorded) {
    const count = () =>
      deps.db.entities.usageCounter
        .update(key)
        .add({ used: quantity })
        .set(monthly ? { ttl: monthlyCounterTtl(monthOf(now)) } : {})
        .where((attr, op) =>
          quantity < 0 ? op.gte(attr.used, -quantity) : `${op.notExists(attr.used)} OR ${op.lte(attr.used, ceiling - quantity)}`,
        )
        .go({ response: 'all_new' });
    try {
      // A workspace's count must not outlive the workspace, should a delete be emptying it now.
      const { data } = await (scope.ownerType === 'Workspace'
        ? madeInOpenWorkspace(deps, scope.ownerId, count, () => forgetUsage(deps, scope.ownerId))
        : count());
      used = data.used;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      recorded = false;
    }
  }
  if (used === undefined) {
    const { data } = await deps.db.entities.usageCounter.get(key).go({ consistent: true });
    used = Math.max(0, data?.used ?? 0);
  }
  const { unit } = features[feature];
  const counts = { feature, quantity, ...countsOf(standing(feature, used, limit, now)), ...(metadata ? { metadata } : {}) };
  if (recorded) return { recorded, ...counts, message: `${feature}: recorded ${quantity} (${unit}).` };
  const message =
    quantity < 0
      ? `${feature}: cannot release ${-quantity} ${unit}; ${used} are in use.`
      : `${feature}: ${quantity} more would pass the limit of ${ceiling} ${unit}; nothing was recorded.`;
  return {
    recorded,
    ...counts,
    ...(quantity > 0 ? { reason: 'LIMIT_EXCEEDED', upgrade_url: config().UPGRADE_URL } : {}),
    message,
  };
}
