import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { isConditionFailure } from '../store/conditions.ts';
import type { Database } from '../store/database.ts';

type WriteTransaction = Parameters<Database['transaction']['write']>[0];
type TransactionWorkspace = Parameters<WriteTransaction>[0]['workspace'];

/**
 * The transaction item that holds a create in a workspace (a key, a member, an invitation,
 * a token, an endpoint, a usage count) to the workspace being there and no delete having
 * begun: a delete marks the workspace first (`deletingAt`), then reads what to remove, so
 * nothing made in it afterwards can outlive it.
 */
export const workspaceStillOpen = (workspace: TransactionWorkspace, id: string) =>
  workspace
    .check({ id })
    .where((attr, op) => `${op.exists(attr.id)} AND ${op.notExists(attr.deletingAt)}`)
    .commit();

/**
 * Runs a create whose transaction holds workspaceStillOpen: cancelled because the workspace
 * is gone or being deleted, it answers 404 for the workspace; any other failure is the create's own.
 */
export async function inOpenWorkspace<T>(deps: Deps, workspaceId: string, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (isConditionFailure(error)) {
      const { data } = await deps.db.entities.workspace.get({ id: workspaceId }).go({ consistent: true });
      if (!data || data.deletingAt) throw new NotFound('workspace', workspaceId);
    }
    throw error;
  }
}
