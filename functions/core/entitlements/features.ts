import type { Tier } from '#core/platform/tiers';
import { tiers } from '#core/platform/tiers';

/**
 * The metered features (docs/tenancy-and-limits.md, Entitlements): a `month` feature resets
 * each UTC month, a `total` one counts what exists. Clients may report only the `recordable`
 * ones (POST /entitlements/usage); the service counts the others itself.
 */
export const features = {
  api_calls: { period: 'month', unit: 'requests', recordable: false },
  posts: { period: 'total', unit: 'posts', recordable: false },
  storage: { period: 'total', unit: 'bytes', recordable: true },
  api_keys: { period: 'total', unit: 'keys', recordable: false },
  webhooks: { period: 'total', unit: 'endpoints', recordable: false },
  members: { period: 'total', unit: 'members', recordable: false },
  seo_reports: { period: 'month', unit: 'reports', recordable: false },
  mcp_calls: { period: 'month', unit: 'calls', recordable: false },
  /** The workspaces a user owns: counted per user, in their own namespace, at their tier. */
  workspaces: { period: 'total', unit: 'workspaces', recordable: false, owners: ['User'] },
} as const satisfies Record<
  keyof (typeof tiers)[Tier]['entitlements'],
  { period: 'month' | 'total'; unit: string; recordable: boolean; owners?: readonly OwnerType[] }
>;

export type Feature = keyof typeof features;

type OwnerType = 'Workspace' | 'User';

/** Does a namespace of `ownerType` count `feature`? Features without `owners` count everywhere. */
export const countsIn = (feature: Feature, ownerType: OwnerType): boolean => {
  const owners: readonly OwnerType[] | undefined = (features[feature] as { owners?: readonly OwnerType[] }).owners;
  return !owners || owners.includes(ownerType);
};

export const featureNames = Object.keys(features) as [Feature, ...Feature[]];

/** A tier's own limit of a feature; null is unlimited. */
export const tierLimit = (tier: Tier, feature: Feature): number | null => tiers[tier].entitlements[feature];
