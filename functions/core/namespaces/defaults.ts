import { randomUUID } from 'node:crypto';
import { newId } from '#core/platform/ids';
import type { Deps } from '#core/ports/deps';
import type { Database } from '#core/store/database';
import { defaultNamespaceId } from './ids.ts';

type WriteTransaction = Parameters<Database['transaction']['write']>[0];
/** The namespace entity as a transaction's callback receives it. */
type TransactionNamespace = Parameters<WriteTransaction>[0]['namespace'];

/**
 * The transaction item that creates a workspace's default namespace, beside the workspace
 * itself: named and slugged as the workspace, sharing its ULID (ids.ts), so that the two
 * come and go together.
 */
export const workspaceNamespace = (
  namespace: TransactionNamespace,
  workspace: { id: string; name: string; slug: string; createdAt: string },
) =>
  namespace
    .create({
      id: defaultNamespaceId(workspace.id),
      uuid: randomUUID(),
      name: workspace.name,
      slug: workspace.slug,
      ownerType: 'Workspace',
      ownerId: workspace.id,
      workspaceId: workspace.id,
      isDefault: true,
      isActive: true,
      packages: [],
      createdAt: workspace.createdAt,
      updatedAt: workspace.createdAt,
    })
    .commit();

/** The transaction item that creates a user's own namespace, "Personal", beside the user. */
export const personalNamespace = (namespace: TransactionNamespace, user: { id: number; createdAt: string }) =>
  namespace
    .create({
      id: newId('namespace', new Date(user.createdAt)),
      uuid: randomUUID(),
      name: 'Personal',
      slug: 'personal',
      ownerType: 'User',
      ownerId: String(user.id),
      isDefault: true,
      isActive: true,
      packages: [],
      createdAt: user.createdAt,
      updatedAt: user.createdAt,
    })
    .commit();

/** Removes a workspace's default namespace with the workspace (its packages go with it). */
export async function forgetWorkspaceNamespace(deps: Deps, workspaceId: string): Promise<void> {
  await deps.db.entities.namespace.delete({ id: defaultNamespaceId(workspaceId) }).go();
}
