import type { EntitlementScope } from '#core/entitlements/entitlement-scope';
import type { Environment } from '#core/platform/environments';
import { NotFound } from '#core/platform/errors';
import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { defaultNamespaceOf } from './access.ts';
import { entitlementScopeOf } from './scope.ts';

/** A workspace's own entitlements: its default namespace's, at its tier. */
export async function workspaceScope(
  deps: Deps,
  workspace: { id: string; tier: Tier },
  environment: Environment,
): Promise<EntitlementScope> {
  return entitlementScopeOf(await defaultNamespaceOf(deps, workspace.id), environment, workspace.tier);
}

/** The entitlements of the workspace with this id, read at its current tier. */
export async function workspaceScopeById(deps: Deps, workspaceId: string, environment: Environment): Promise<EntitlementScope> {
  const { data: workspace } = await deps.db.entities.workspace.get({ id: workspaceId }).go();
  if (!workspace) throw new NotFound('workspace', workspaceId);
  return workspaceScope(deps, workspace, environment);
}
