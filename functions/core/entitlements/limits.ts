import type { Tier } from '#core/platform/tiers';
import { type Feature, tierLimit } from './features.ts';

/** A bundle of extra entitlements on a namespace, until `expiresAt` if set. */
export interface PackageGrant {
  id: string;
  name: string;
  entitlements: Partial<Record<Feature, number>>;
  expiresAt?: string;
  grantedAt: string;
}

/** Packages in force at `now`: an expired package is absent, whether or not it was removed yet. */
export const activePackages = (packages: readonly PackageGrant[], now: Date): PackageGrant[] =>
  packages.filter((grant) => !grant.expiresAt || Date.parse(grant.expiresAt) > now.getTime());

/** A feature's limit: the tier's, plus what the packages in force add; null (unlimited) stays unlimited. */
export function limitOf(tier: Tier, feature: Feature, packages: readonly PackageGrant[], now: Date): number | null {
  const base = tierLimit(tier, feature);
  if (base === null) return null;
  return activePackages(packages, now).reduce((sum, grant) => sum + (grant.entitlements[feature] ?? 0), base);
}
