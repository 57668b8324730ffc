import type { Actor } from '#core/access/principal';
import type { ListSource } from '#core/lists/list-source';
import { idsCreatedWithin } from '#core/platform/ids';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { NamespaceItem } from '#core/store/items';
import type { KeyRange } from '#core/store/key-order';
import { collections, counted } from '#core/store/list-counts';
import { defaultNamespaceId } from './ids.ts';
import { namespaceView } from './view.ts';

/** A namespace id's bound as the workspace id of the same ULID (a default namespace's workspace). */
const asWorkspaceBound = (namespaceBound: string) => `wks_${namespaceBound.slice('ns_'.length)}`;

/**
 * The namespaces a credential may use, in id order: the user's own, and the default of each of
 * their workspaces, read as the user's memberships (gsi1, by workspace id, which is the
 * namespace's ULID) so that a page costs what it shows. A credential bound to one workspace
 * sees its namespace alone.
 */
export function namespacesOf(
  deps: Deps,
  actor: Actor,
  filter: { workspaceId?: string } = {},
): ListSource<string, ReturnType<typeof namespaceView>> {
  const { membership, namespace } = deps.db.entities;
  const { userId } = actor;
  const only = filter.workspaceId ?? actor.limits?.workspaceId;
  let own: Promise<string[]> | undefined;
  const ownIds = () =>
    (own ??= namespace.query
      .byOwner({ ownerType: 'User', ownerId: String(userId) })
      .go({ ...hotPath, pages: 'all' })
      .then(({ data }) => data.map((item) => item.id)));

  async function workspaceNamespaceIds(wanted: number, descending: boolean, after: string | undefined, range: KeyRange | undefined) {
    const memberships = membership.query.byUser({ userId });
    const query = after
      ? descending
        ? memberships.lt({ workspaceId: asWorkspaceBound(after) })
        : memberships.gt({ workspaceId: asWorkspaceBound(after) })
      : range
        ? memberships.between({ workspaceId: asWorkspaceBound(range.from) }, { workspaceId: asWorkspaceBound(range.to) })
        : memberships;
    const { data } = await query.go({ ...hotPath, count: wanted, limit: wanted, order: descending ? 'desc' : 'asc' });
    return data.map((m) => defaultNamespaceId(m.workspaceId));
  }

  return {
    collection: only ? `namespaces-of-user:${userId}:in:${only}` : `namespaces-of-user:${userId}`,
    count: async () => (only ? 1 : (await ownIds()).length + (await counted(deps.db, collections.workspacesOfUser(userId)).count())),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('namespace', after, before),
    async read({ skip, take, descending, after, range }) {
      const wanted = skip + take + 1;
      const within = (id: string) => (!range || (id >= range.from && id <= range.to)) && (!after || (descending ? id < after : id > after));
      const candidates = only
        ? [defaultNamespaceId(only)]
        : [...(await ownIds()), ...(await workspaceNamespaceIds(wanted, descending, after, range))];
      const ordered = candidates.filter(within).sort();
      if (descending) ordered.reverse();
      const read = ordered.slice(0, wanted);
      const rows = read.slice(skip, skip + take);
      return { rows, next: read.length === wanted ? rows.at(-1)! : null };
    },
    async view(rows) {
      if (!rows.length) return [];
      const { data } = await namespace.get(rows.map((id) => ({ id }))).go({ ...hotPath, consistent: true });
      const byId = new Map(data.map((item) => [item.id, item as NamespaceItem]));
      // A workspace made before namespaces existed has none: it is left out.
      return rows.flatMap((id) => (byId.has(id) ? [namespaceView(byId.get(id)!)] : []));
    },
  };
}
