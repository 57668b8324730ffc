import type { EntitlementScope } from '#core/entitlements/entitlement-scope';
import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { entitlementScopeOf } from './scope.ts';

/**
 * A user's own entitlements (the workspaces they may own): their personal namespace's, at
 * their tier, in `live` (workspaces have no test mode). An account made before namespaces
 * existed has none: its scope has no packages.
 */
export async function userScope(deps: Deps, user: { id: number; tier: Tier }): Promise<EntitlementScope> {
  const ownerId = String(user.id);
  const { data } = await deps.db.entities.namespace.query.byOwner({ ownerType: 'User', ownerId }).go({ pages: 'all' });
  const own = data.find((namespace) => namespace.isDefault) ?? { id: '', ownerType: 'User' as const, ownerId, packages: [] };
  return entitlementScopeOf(own, 'live', user.tier);
}

/** Whose `workspaces` count a workspace is in: its owner's. */
export const workspaceOwnerCount = (ownerId: number) => ({ ownerType: 'User', ownerId: String(ownerId), environment: 'live' }) as const;
