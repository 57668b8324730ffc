import type { Environment } from '../auth/api-key-format.ts';
import type { Deps } from '../deps.ts';
import { defaultNamespaceOf } from '../namespaces/access.ts';
import { entitlementScopeOf } from '../namespaces/scope.ts';
import type { Tier } from '../tiers.ts';
import type { EntitlementScope } from './entitlements.ts';

/** A workspace's own entitlements: its default namespace's, at its tier. */
export async function workspaceScope(deps: Deps, workspace: { id: string; tier: Tier }, environment: Environment): Promise<EntitlementScope> {
  return entitlementScopeOf(await defaultNamespaceOf(deps, workspace.id), environment, workspace.tier);
}
