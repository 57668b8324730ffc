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
 * Makes something in a workspace that a delete may be emptying at this moment. A delete marks
 * the workspace before it reads what to remove, so a create committed too late for it finds the
 * mark afterwards, undoes itself and answers 404: one read, and no transaction on the workspace
 * item that every request's authorization reads.
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
