import type { EntitlementScope } from '#core/entitlements/entitlement-scope';
import type { Environment } from '#core/platform/environments';
import { NotFound } from '#core/platform/errors';
import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { NamespaceContext } from './access.ts';

/**
 * Where a namespace's entitlements are counted and limited, in one environment: its
 * owner's counters, at `tier` (the owner's: ownerTierOf), plus its packages.
 */
export const entitlementScopeOf = (
  namespace: Pick<NamespaceContext, 'id' | 'ownerType' | 'ownerId' | 'packages'>,
  environment: Environment,
  tier: Tier,
): EntitlementScope => ({
  namespaceId: namespace.id,
  ownerType: namespace.ownerType,
  ownerId: namespace.ownerId,
  environment,
  tier,
  packages: namespace.packages,
});

/** The tier a namespace's limits start from: its workspace's, or its user's own. */
export async function ownerTierOf(deps: Deps, namespace: Pick<NamespaceContext, 'ownerType' | 'ownerId'>): Promise<Tier> {
  if (namespace.ownerType === 'Workspace') {
    const { data } = await deps.db.entities.workspace.get({ id: namespace.ownerId }).go(hotPath);
    if (!data) throw new NotFound('workspace', namespace.ownerId);
    return data.tier;
  }
  const { data } = await deps.db.entities.user.get({ id: Number(namespace.ownerId) }).go(hotPath);
  if (!data) throw new NotFound('user', namespace.ownerId);
  return data.tier;
}
