import type * as z from 'zod/mini';
import { monthOf } from '#core/platform/periods';
import type { Deps } from '#core/ports/deps';
import type { SubjectWindow } from '#core/store/meter-items';
import type { usageReport as usageReportSchema } from './entitlement-schemas.ts';
import type { EntitlementScope } from './entitlement-scope.ts';
import { standingsOf } from './entitlements.ts';
import { meterItemsOf } from './usage.ts';

const userSubject = /^user:(\d+)$/;

/**
 * GET /usage: the workspace's current month, in the scope's environment: its requests by
 * day and by subject (summed over the meter's shards), and every feature's standing.
 */
export async function usageReport(
  deps: Deps,
  scope: EntitlementScope & { ownerType: 'Workspace' },
): Promise<z.output<typeof usageReportSchema>> {
  const now = deps.clock.now();
  const month = monthOf(now);
  const items = await meterItemsOf(deps, scope.ownerId, scope.environment, month.key);
  const features = await standingsOf(deps, scope, items);
  const byDay = new Map<string, number>();
  const bySubject = new Map<string, number>();
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) {
      if (name.startsWith('d:')) byDay.set(name.slice(2), (byDay.get(name.slice(2)) ?? 0) + (value as number));
      if (name.startsWith('w:')) bySubject.set(name.slice(2), (bySubject.get(name.slice(2)) ?? 0) + (value as SubjectWindow).t);
    }
  }
  const prefix = month.key;
  return {
    workspace_id: scope.ownerId,
    environment: scope.environment,
    period: { start: month.start.toISOString(), end: month.end.toISOString() },
    api_calls: {
      total: features.api_calls.used,
      limit: features.api_calls.limit,
      by_day: [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, count]) => ({ date: `${prefix}-${day}`, count })),
      by_key: [...bySubject]
        .sort(([, a], [, b]) => b - a)
        .map(([subject, count]) => {
          const user = userSubject.exec(subject);
          return { key_id: user ? null : subject, user_id: user ? Number(user[1]) : null, count };
        }),
    },
    features,
  };
}
