import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { AccessDenied } from '../errors.ts';
import { idPattern } from '../ids.ts';

const workspaceIdPattern = idPattern('workspace');

/**
 * The workspace a request acts in (DECISIONS.md, Tenancy): the credential's home
 * workspace, or another workspace of the same user named by X-Workspace-ID or
 * `workspace_id`. Naming one the user is not a member of is a 403, whether or not it exists.
 */
export async function resolveWorkspace(deps: Deps, principal: Principal, named: string | undefined): Promise<string> {
  if (!named || named === principal.workspaceId) return principal.workspaceId;
  const denied = new AccessDenied(`You are not a member of workspace "${named.slice(0, 64)}".`);
  if (!workspaceIdPattern.test(named)) throw denied;
  const { data } = await deps.db.entities.membership.get({ workspaceId: named, userId: principal.userId }).go();
  if (!data) throw denied;
  return named;
}
