import type { Deps } from '#core/deps';
import { workspaceScope } from '#core/entitlements/workspace-scope';
import { NotFound } from '#core/errors';
import type { ApiRequest } from '#core/http/types';
import type { RouteSpec } from '#core/route-types';

/** The entitlement scope a request acts in: its workspace's default namespace, in the credential's environment. */
export async function requestScope(deps: Deps, request: ApiRequest<RouteSpec & { auth: 'credential' }>) {
  const { data: workspace } = await deps.db.entities.workspace.get({ id: request.workspaceId }).go();
  if (!workspace) throw new NotFound('workspace', request.workspaceId);
  return workspaceScope(deps, workspace, request.principal.environment);
}
