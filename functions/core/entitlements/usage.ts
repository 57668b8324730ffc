import { monthOf } from '#core/platform/periods';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import { collections, counted } from '#core/store/list-counts';
import { type MeterItem, meterPartition } from '#core/store/meter-items';
import { queryAll } from '#core/store/query-pages';
import type { EntitlementScope } from './entitlement-scope.ts';
import { type Feature, featureNames, features } from './features.ts';

/** The counter period a feature counts in at `now`: the month's key, or `total`. */
const periodOf = (feature: Feature, now: Date): string => (features[feature].period === 'month' ? monthOf(now).key : 'total');

/** The usage counter's key of a feature in a scope, now. */
export const counterKey = (scope: Pick<EntitlementScope, 'ownerType' | 'ownerId' | 'environment'>, feature: Feature, now: Date) => ({
  ownerType: scope.ownerType,
  ownerId: scope.ownerId,
  environment: scope.environment,
  feature,
  period: periodOf(feature, now),
});

/** A month of a workspace's metered requests: every shard of its meter, in one Query. */
export function meterItemsOf(deps: Deps, workspaceId: string, environment: EntitlementScope['environment'], month: string) {
  return queryAll<MeterItem>(deps.db.table.client, {
    TableName: deps.db.table.name,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': meterPartition(workspaceId, environment, month) },
    ConsistentRead: true,
  });
}

/**
 * What the scope has used of every feature now. Counted by the service: api_calls (the
 * usage meter of the workspace), members (the workspace's member count); the rest from
 * the scope's usage counters. A user's own namespace makes no requests and has no members.
 * `meterRead`: the meter's items, where the caller has read them already.
 */
export async function usageOf(deps: Deps, scope: EntitlementScope, now: Date, meterRead?: MeterItem[]): Promise<Record<Feature, number>> {
  const isWorkspace = scope.ownerType === 'Workspace';
  const [counters, meter, members] = await Promise.all([
    deps.db.entities.usageCounter.query
      .byOwner({ ownerType: scope.ownerType, ownerId: scope.ownerId, environment: scope.environment })
      .go({ ...hotPath, consistent: true, pages: 'all' }),
    meterRead ?? (isWorkspace ? meterItemsOf(deps, scope.ownerId, scope.environment, monthOf(now).key) : []),
    isWorkspace ? counted(deps.db, collections.membersOfWorkspace(scope.ownerId)).count() : 0,
  ]);
  const used = Object.fromEntries(featureNames.map((feature) => [feature, 0])) as Record<Feature, number>;
  for (const counter of counters.data) {
    const feature = counter.feature as Feature;
    if (feature in features && counter.period === periodOf(feature, now)) used[feature] = Math.max(0, counter.used);
  }
  used.api_calls = meter.reduce((sum, item) => sum + (item.calls ?? 0), 0);
  used.members = members;
  return used;
}

/** Drops a deleted workspace's usage counters, both environments' (its meter items lapse by TTL, and are never read again). */
export async function forgetUsage(deps: Deps, workspaceId: string): Promise<void> {
  const { usageCounter } = deps.db.entities;
  for (const environment of ['live', 'test'] as const) {
    const { data } = await usageCounter.query.byOwner({ ownerType: 'Workspace', ownerId: workspaceId, environment }).go({ pages: 'all' });
    if (data.length) await usageCounter.delete(data).go();
  }
}
