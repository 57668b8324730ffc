import type { Principal } from '#core/access/principal';
import { workspaceState } from '#core/credentials/workspace-state';
import { AccessDenied, WorkspaceSuspended } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { notAMemberOf, wellFormedWorkspaceId } from './named-workspace.ts';

/**
 * The workspace a request acts in (docs/decisions.md, Tenancy): the credential's home
 * workspace, or another workspace of the same user named by X-Workspace-ID or
 * `workspace_id`. Naming one the user is not a member of is a 403, whether or not it
 * exists; an OAuth token may name none but its own. A suspended workspace, named or home, answers 403 WORKSPACE_SUSPENDED unless the
 * route allows it.
 */
export async function resolveWorkspace(
  deps: Deps,
  principal: Principal,
  named: string | undefined,
  allowSuspended = false,
): Promise<string> {
  // A credential of a suspended workspace is suspended with it, wherever it points.
  if (principal.suspension && !allowSuspended) {
    throw new WorkspaceSuspended(principal.workspaceId, principal.suspension.suspendedAt, principal.suspension.reason);
  }
  if (!named) return principal.workspaceId;
  const id = wellFormedWorkspaceId(named);
  if (id === principal.workspaceId) return id;
  // An OAuth token acts for its client, whose grant covers the client's workspace only.
  if (principal.limits?.workspaceId) {
    throw new AccessDenied("An OAuth access token acts only in its client's workspace; it cannot name another.");
  }
  const state = await workspaceState(deps, id, principal.userId);
  if (!state.exists || !state.isMember) throw notAMemberOf(named);
  if (state.suspension && !allowSuspended) {
    throw new WorkspaceSuspended(id, state.suspension.suspendedAt, state.suspension.reason);
  }
  return id;
}
