import type { NewEvent } from '#core/events/outbox';
import { commitWithEvents } from '#core/events/outbox';
import type { ClaimWrites } from '#core/pixel/site-claims';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { changeAsRead } from '#core/store/change-as-read';
import type { WorkspaceItem } from '#core/store/items';

type SuspensionField = 'suspendedAt' | 'suspendedReason' | 'unpaidAt';

/** What a change does to a workspace, and the events that report the workspace it leaves. */
export interface WorkspaceChange {
  set: Partial<Pick<WorkspaceItem, 'name' | 'settings' | 'tier' | 'updatedAt' | SuspensionField>>;
  remove?: SuspensionField[];
  events: (updated: WorkspaceItem) => NewEvent[];
  /** Writes that go with the change in its transaction: the pixel domain claims its settings make (core/pixel/site-claims.ts). */
  claims?: ClaimWrites;
}

/**
 * Changes a workspace as it was read (its `updatedAt` and suspension unchanged since), with
 * the change's events in the same transaction; `first` is a read the caller made already.
 * Answers the workspace as written.
 */
export function changeWorkspace(
  deps: Deps,
  id: string,
  change: (current: WorkspaceItem) => WorkspaceChange | Promise<WorkspaceChange>,
  first?: WorkspaceItem,
) {
  return changeAsRead(async (attempt) => {
    const current = attempt === 0 && first ? first : await readWorkspace(deps, id);
    const { set, remove = [], events, claims } = await change(current);
    const updated: WorkspaceItem = { ...current, ...set };
    for (const field of remove) delete updated[field];
    await commitWithEvents(deps, events(updated), (entities) => {
      const patch = entities.workspace.patch({ id }).set(set);
      return [
        ...(claims?.(entities) ?? []),
        (remove.length ? patch.remove(remove) : patch)
          .where(
            (attr, op) =>
              // A claim never outlives a delete: once one begins (deletingAt), no change claims a domain (site-claims.ts).
              `${op.eq(attr.updatedAt, current.updatedAt)} AND ${current.suspendedAt ? op.eq(attr.suspendedAt, current.suspendedAt) : op.notExists(attr.suspendedAt)}${claims ? ` AND ${op.notExists(attr.deletingAt)}` : ''}`,
          )
          .commit(),
      ];
    });
    return updated;
  }, 'The workspace is being changed by others; try again.');
}

async function readWorkspace(deps: Deps, id: string): Promise<WorkspaceItem> {
  const { data } = await deps.db.entities.workspace.get({ id }).go({ consistent: true });
  if (!data) throw new NotFound('workspace', id);
  return data;
}
