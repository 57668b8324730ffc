import type { Deps } from '../deps.ts';
import { createUser, type NewUser } from './users.ts';
import { createWorkspace } from './workspaces.ts';

/** A user with a personal workspace they own, on their tier: what registration and the admin CLI make. */
export async function createAccount(deps: Deps, input: NewUser) {
  const user = await createUser(deps, input);
  const workspace = await createWorkspace(deps, user.id, { name: `${input.name.slice(0, 240)}'s workspace`, tier: input.tier });
  return { user, workspace };
}
