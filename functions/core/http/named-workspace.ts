import { AccessDenied } from '#core/platform/errors';
import { idInputPattern, normaliseId } from '#core/platform/ids';

const workspaceIdPattern = idInputPattern('workspace');

/** The refusal of a workspace the caller may not act in: the same whether it exists or not. */
export const notAMemberOf = (named: string) => new AccessDenied(`You are not a member of workspace "${named.slice(0, 64)}".`);

/**
 * A workspace a request names (X-Workspace-ID or `workspace_id`), if it is a workspace id at
 * all, normalised (ULIDs are case-insensitive: a lower-case id names the same workspace);
 * anything else is refused as a workspace the caller is no member of. Apart from
 * acting-workspace.ts, which reads the table, so that a function without it can check as much.
 */
export function wellFormedWorkspaceId(named: string): string {
  if (!workspaceIdPattern.test(named)) throw notAMemberOf(named);
  return normaliseId(named);
}
