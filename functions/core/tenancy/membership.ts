import type { Actor } from '#core/access/principal';
import { AccessDenied, NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { commitOrThrow, ignoreConditionFailure } from '#core/store/conditions';
import { hotPath } from '#core/store/database';
import { collections, countOneFewer, forgetCount } from '#core/store/list-counts';
import type { Role } from '#core/store/roles';

/**
 * The actor's role in a workspace. Not being a member reads as "no such workspace", so that a
 * foreign id is indistinguishable from one that never existed; the role a principal carries for
 * its home workspace is used as the authorizer read it.
 */
export async function roleIn(deps: Deps, workspaceId: string, actor: Actor): Promise<Role> {
  const only = actor.limits?.workspaceId;
  if (only && only !== workspaceId) throw new NotFound('workspace', workspaceId);
  if (actor.role && actor.workspaceId === workspaceId) return actor.role;
  const { data } = await deps.db.entities.membership.get({ workspaceId, userId: actor.userId }).go(hotPath);
  if (!data) throw new NotFound('workspace', workspaceId);
  return data.role;
}

export function requireRole(role: Role, allowed: readonly Role[], action: string): void {
  if (!allowed.includes(role)) {
    throw new AccessDenied(`Only a workspace ${allowed.join(' or ')} may ${action}; you are a ${role}.`);
  }
}

/** Ends a membership, counted out of the user's workspaces (the workspace's own count goes with it); a condition failure when it is gone. */
export function leave(deps: Deps, workspaceId: string, userId: number) {
  return commitOrThrow(() =>
    deps.db.transaction
      .write(({ membership, counter }) => [
        membership
          .delete({ workspaceId, userId })
          .where((attr, op) => op.exists(attr.role))
          .commit(),
        countOneFewer(counter, collections.workspacesOfUser(userId)),
      ])
      .go(),
  );
}

/** Undoes a join to a workspace being deleted (workspace-open.ts): the membership and the count the join moved, whatever the delete removed first. */
export async function undoJoin(deps: Deps, workspaceId: string, userId: number): Promise<void> {
  await leave(deps, workspaceId, userId).catch(ignoreConditionFailure);
  await forgetCount(deps.db, collections.membersOfWorkspace(workspaceId));
}
