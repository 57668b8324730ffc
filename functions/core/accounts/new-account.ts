import { newId } from '#core/platform/ids';
import type { Deps } from '#core/ports/deps';
import { createUser, type NewUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';

/**
 * A user with a personal workspace they own, on their tier: what registration, the admin
 * CLI and bootstrap make. The workspace's id is chosen first, so that the user's record
 * names it from the start: the user's own events go there.
 */
export async function createAccount(deps: Deps, input: NewUser, workspaceName = `${input.name.slice(0, 240)}'s workspace`) {
  const personalWorkspaceId = newId('workspace', deps.clock.now());
  const user = await createUser(deps, { ...input, personalWorkspaceId });
  const workspace = await createWorkspace(deps, user.id, { name: workspaceName, tier: input.tier }, { id: personalWorkspaceId });
  return { user, workspace };
}
