import type { Actor, Principal } from '#core/access/principal';
import { NamespaceAccessDenied, NotFound } from '#core/platform/errors';
import { idInputPattern, normaliseId } from '#core/platform/ids';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { NamespaceItem } from '#core/store/items';
import { defaultNamespaceId } from './ids.ts';

/** What acting in a namespace needs of it: whose it is, whether it is active, its packages. */
export type NamespaceContext = Pick<NamespaceItem, 'id' | 'ownerType' | 'ownerId' | 'workspaceId' | 'isDefault' | 'isActive' | 'packages'>;

const namespaceIdPattern = idInputPattern('namespace');

/**
 * May the actor use the namespace? A user's own namespace is theirs alone, and not through
 * a credential bound to one workspace (an OAuth token); a workspace's namespace is its
 * members', the bound workspace's only for such a credential.
 */
async function mayUse(deps: Deps, actor: Actor, namespace: NamespaceItem): Promise<boolean> {
  const only = actor.limits?.workspaceId;
  if (namespace.ownerType === 'User') return !only && namespace.ownerId === String(actor.userId);
  if (only && namespace.ownerId !== only) return false;
  // The role the authorizer read with the credential covers its home workspace.
  if (actor.role && actor.workspaceId === namespace.ownerId) return true;
  const { data } = await deps.db.entities.membership.get({ workspaceId: namespace.ownerId, userId: actor.userId }).go(hotPath);
  return !!data;
}

/** The namespace if the actor may use it; null for one they may not, as for one that does not exist. */
async function usableNamespace(deps: Deps, actor: Actor, id: string): Promise<NamespaceItem | null> {
  const { data } = await deps.db.entities.namespace.get({ id }).go({ ...hotPath, consistent: true });
  return data && (await mayUse(deps, actor, data)) ? data : null;
}

/** A namespace by its id in a path: one the actor may not use is 404, as if it did not exist. */
export async function findNamespace(deps: Deps, actor: Actor, id: string): Promise<NamespaceItem> {
  const namespace = await usableNamespace(deps, actor, id);
  if (!namespace) throw new NotFound('namespace', id);
  return namespace;
}

/** The namespace a request names for context (X-Namespace-ID, else `namespace_id`), if any. */
export const namedNamespace = (request: { headers: Record<string, string>; query: unknown }): string | undefined =>
  request.headers['x-namespace-id'] || (request.query as { namespace_id?: string } | undefined)?.namespace_id || undefined;

function requireActive<N extends NamespaceContext>(namespace: N): N {
  if (!namespace.isActive)
    throw new NamespaceAccessDenied(namespace.id, `Namespace "${namespace.id}" is inactive: nothing can be done in it.`);
  return namespace;
}

/**
 * A workspace's default namespace. A workspace made before namespaces existed has no
 * namespace record: its default acts as one without packages, not as an error.
 */
export async function defaultNamespaceOf(deps: Deps, workspaceId: string): Promise<NamespaceContext> {
  const id = defaultNamespaceId(workspaceId);
  const { data } = await deps.db.entities.namespace.get({ id }).go({ ...hotPath, consistent: true });
  return data ?? { id, ownerType: 'Workspace', ownerId: workspaceId, workspaceId, isDefault: true, isActive: true, packages: [] };
}

/**
 * The namespace a request acts in: unnamed, the acting workspace's default; named, one the
 * credential may use (its user's own, or the default of one of the user's workspaces). Any
 * other is 403 NAMESPACE_ACCESS_DENIED whether or not it exists, so that a foreign id reveals
 * nothing.
 */
export async function resolveNamespace(deps: Deps, principal: Principal, workspaceId: string, named?: string): Promise<NamespaceContext> {
  if (named === undefined) return requireActive(await defaultNamespaceOf(deps, workspaceId));
  const namespace = namespaceIdPattern.test(named) ? await usableNamespace(deps, principal, normaliseId(named)) : null;
  if (!namespace) throw new NamespaceAccessDenied(named);
  return requireActive(namespace);
}
