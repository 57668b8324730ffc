import type { Environment } from '../auth/api-key-format.ts';
import type { Deps } from '../deps.ts';
import { defaultNamespaceId } from '../namespaces/ids.ts';
import type { Tier } from '../tiers.ts';
import type { EntitlementScope } from './entitlements.ts';

/**
 * A workspace's own entitlements: its default namespace's, at its tier. A workspace made
 * before namespaces existed has no namespace record: it has no packages, not an error.
 */
export async function workspaceScope(deps: Deps, workspace: { id: string; tier: Tier }, environment: Environment): Promise<EntitlementScope> {
  const namespaceId = defaultNamespaceId(workspace.id);
  const { data } = await deps.db.entities.namespace.get({ id: namespaceId }).go({ consistent: true });
  return { namespaceId, ownerType: 'Workspace', ownerId: workspace.id, environment, tier: workspace.tier, packages: data?.packages ?? [] };
}
