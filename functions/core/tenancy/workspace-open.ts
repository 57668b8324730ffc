import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import type { WorkspaceItem } from '#core/store/items';

/** The workspace something is made in: absent or being deleted is 404 (madeInOpenWorkspace checks again after the create). */
export async function openWorkspace(deps: Deps, workspaceId: string): Promise<WorkspaceItem> {
  const { data } = await deps.db.entities.workspace.get({ id: workspaceId }).go();
  if (!data || data.deletingAt) throw new NotFound('workspace', workspaceId);
  return data;
}

/** Is the workspace there, with no delete begun (`deletingAt`)? A strongly consistent read. */
async function isOpen(deps: Deps, workspaceId: string): Promise<boolean> {
  const { data } = await deps.db.entities.workspace.get({ id: workspaceId }).go({ consistent: true });
  return !!data && !data.deletingAt;
}

/**
 * Makes something in a workspace that a delete may be emptying at this very moment (a key,
 * a token, a member, an invitation, an endpoint, a usage count). A delete marks the
 * workspace first and only then reads what to remove, with strongly consistent reads; so
 * a create that committed too late for the delete to see it finds the mark when it looks
 * afterwards, undoes itself (`undo`, which tolerates what the delete removed already) and
 * answers 404. One read after the create, and no transaction on the workspace's item,
 * which every request's authorization reads.
 */
export async function madeInOpenWorkspace<T>(
  deps: Deps,
  workspaceId: string,
  create: () => Promise<T>,
  undo: (made: T) => Promise<unknown>,
): Promise<T> {
  const made = await create();
  if (await isOpen(deps, workspaceId)) return made;
  await undo(made);
  throw new NotFound('workspace', workspaceId);
}
