import type { Principal } from '#core/access/principal';
import { workspaceState } from '#core/credentials/workspace-state';
import { config } from '#core/platform/config';
import { AccessDenied, PaymentRequired, WorkspaceSuspended } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { notAMemberOf, wellFormedWorkspaceId } from './named-workspace.ts';

/** What a route still answers in a workspace that is suspended, or unpaid (a route open while suspended is open while unpaid). */
export interface WorkspaceRefusals {
  allowSuspended?: boolean;
  allowUnpaid?: boolean;
}

/** A workspace's suspension (403) and unpaid bill (402), as the route lets either through. */
function refuseClosed(
  id: string,
  state: Pick<Principal, 'suspension' | 'unpaidSince'>,
  { allowSuspended = false, allowUnpaid = false }: WorkspaceRefusals,
): void {
  if (allowSuspended) return;
  if (state.suspension) throw new WorkspaceSuspended(id, state.suspension.suspendedAt, state.suspension.reason);
  if (state.unpaidSince && !allowUnpaid) throw new PaymentRequired(id, state.unpaidSince, config().UPGRADE_URL);
}

/**
 * The acting workspace (docs/decisions.md, Tenancy): the credential's home, or another of the
 * user's named by X-Workspace-ID or `workspace_id`. Naming one the user is not a member of is a
 * 403 whether or not it exists, and an OAuth token may name none but its own.
 */
export async function resolveWorkspace(
  deps: Deps,
  principal: Principal,
  named: string | undefined,
  allowed: WorkspaceRefusals = {},
): Promise<string> {
  // A credential of a suspended (or unpaid) workspace is held with it, wherever it points.
  refuseClosed(principal.workspaceId, principal, allowed);
  if (!named) return principal.workspaceId;
  const id = wellFormedWorkspaceId(named);
  if (id === principal.workspaceId) return id;
  // An OAuth token acts for its client, whose grant covers the client's workspace only.
  if (principal.limits?.workspaceId) {
    throw new AccessDenied("An OAuth access token acts only in its client's workspace; it cannot name another.");
  }
  const state = await workspaceState(deps, id, principal.userId);
  if (!state.exists || !state.isMember) throw notAMemberOf(named);
  refuseClosed(id, state, allowed);
  return id;
}
