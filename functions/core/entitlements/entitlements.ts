import type * as z from 'zod/mini';
import { config } from '#core/platform/config';
import { ValidationFailed } from '#core/platform/errors';
import { monthOf } from '#core/platform/periods';
import type { Deps } from '#core/ports/deps';
import type { MeterItem } from '#core/store/meter-items';
import type * as schemas from './entitlement-schemas.ts';
import type { EntitlementScope } from './entitlement-scope.ts';
import { countsIn, type Feature, featureNames, features } from './features.ts';
import { limitOf } from './limits.ts';
import { usageOf } from './usage.ts';

/** A feature as it stands: `limit` and `available` are null when unlimited. */
export type Standing = z.output<typeof schemas.standing>;

/** The spec's entitlement check result; `limit` and `available` are null when unlimited. */
export type CheckResult = z.output<typeof schemas.checkResult>;

/** When a feature's count resets: the next month for monthly features, never for the others. */
const resetOf = (feature: Feature, now: Date): string | undefined =>
  features[feature].period === 'month' ? monthOf(now).end.toISOString() : undefined;

export function standing(feature: Feature, used: number, limit: number | null, now: Date): Standing {
  const resetAt = resetOf(feature, now);
  return {
    used,
    limit,
    available: limit === null ? null : Math.max(0, limit - used),
    percentage: limit === null || limit === 0 ? (limit === 0 && used > 0 ? 100 : 0) : Math.round((used / limit) * 10_000) / 100,
    unit: features[feature].unit,
    ...(resetAt ? { reset_at: resetAt } : {}),
  };
}

/** A standing as the check and usage answers report it: current_usage, limit, available, unit, reset_at. */
export const countsOf = ({ used, limit, available, unit, reset_at }: Standing) => ({
  current_usage: used,
  limit,
  available,
  unit,
  ...(reset_at ? { reset_at } : {}),
});

/**
 * Every feature of the scope: what is used, the limit, what is left. `meter`: the
 * workspace's meter items of the month, where the caller has read them already.
 */
export async function standingsOf(deps: Deps, scope: EntitlementScope, meter?: MeterItem[]): Promise<Record<Feature, Standing>> {
  const now = deps.clock.now();
  const used = await usageOf(deps, scope, now, meter);
  return Object.fromEntries(
    featureNames
      .filter((feature) => countsIn(feature, scope.ownerType))
      .map((feature) => [feature, standing(feature, used[feature], limitOf(scope.tier, feature, scope.packages, now), now)]),
  ) as Record<Feature, Standing>;
}

/** A feature only some namespaces count (workspaces: a user's own) is a 422 elsewhere, saying where it is counted. */
function requireCountedIn(feature: Feature, scope: Pick<EntitlementScope, 'ownerType'>): void {
  if (countsIn(feature, scope.ownerType)) return;
  throw new ValidationFailed({
    feature: [
      `${feature} is counted per user, in your own namespace: name it with X-Namespace-ID (GET /namespaces?owner_type=User shows its id)`,
    ],
  });
}

/** The answer to "may the scope use `quantity` more of `feature`?" (GET /entitlements/check). */
function checkResult(feature: Feature, quantity: number, current: Standing): CheckResult {
  const allowed = current.limit === null || current.used + quantity <= current.limit;
  const { limit, available, unit } = current;
  const counts = countsOf(current);
  if (allowed)
    return {
      allowed,
      feature,
      message:
        current.limit === null ? `${feature} is unlimited.` : `${feature}: ${quantity} more fits within the limit of ${limit} ${unit}.`,
      ...counts,
    };
  return {
    allowed,
    feature,
    reason: 'LIMIT_EXCEEDED',
    message: `${feature}: ${quantity} more would pass the limit of ${limit} ${unit}; ${available} remain.`,
    ...counts,
    upgrade_url: config().UPGRADE_URL,
  };
}

export async function checkEntitlement(deps: Deps, scope: EntitlementScope, feature: Feature, quantity: number): Promise<CheckResult> {
  requireCountedIn(feature, scope);
  return checkResult(feature, quantity, (await standingsOf(deps, scope))[feature]);
}
