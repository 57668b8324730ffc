import type { Environment } from '#core/platform/environments';
import type { Tier } from '#core/platform/tiers';
import type { PackageGrant } from './limits.ts';

/** Where entitlements are counted and limited: a namespace, in one environment. */
export interface EntitlementScope {
  namespaceId: string;
  ownerType: 'Workspace' | 'User';
  /** The workspace id, or the user id as a string. */
  ownerId: string;
  /** Live and test usage are counted apart; test usage never counts against live limits. */
  environment: Environment;
  /** The owner's tier: the workspace's, or the user's. */
  tier: Tier;
  /** The namespace's packages, expired ones included (ignored here). */
  packages: PackageGrant[];
}
