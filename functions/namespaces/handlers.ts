import type { Principal } from '#core/access/principal';
import { checkEntitlement, standingsOf } from '#core/entitlements/entitlements';
import { handlersFor } from '#core/http/handlers';
import { listPage } from '#core/lists/list-page';
import { findNamespace, type NamespaceContext } from '#core/namespaces/access';
import { namespacesOf } from '#core/namespaces/list';
import { entitlementScopeOf, ownerTierOf } from '#core/namespaces/scope';
import { namespaceDetailView } from '#core/namespaces/view';
import type { Deps } from '#core/ports/deps';
import type { namespaceRoutes } from './routes.ts';

/** A namespace's entitlements as the credential sees them: in its environment, at the owner's tier. */
const scopeOf = async (deps: Deps, principal: Principal, namespace: NamespaceContext) =>
  entitlementScopeOf(namespace, principal.environment, await ownerTierOf(deps, namespace));

export const namespaceHandlers = handlersFor<(typeof namespaceRoutes)[number]>()({
  listNamespaces: async ({ principal, query, route, url, workspaceId }, deps) => ({
    status: 200,
    // workspace_id is checked like X-Workspace-ID (a workspace of yours, else 403) and filters the list to its namespace.
    body: await listPage(
      namespacesOf(deps, principal, { workspaceId: query.workspace_id ? workspaceId : undefined }),
      query,
      route.list,
      url,
    ),
  }),
  getNamespace: async ({ principal, params }, deps) => {
    const namespace = await findNamespace(deps, principal, params.namespace_id);
    const standings = await standingsOf(deps, await scopeOf(deps, principal, namespace));
    return { status: 200, body: { data: namespaceDetailView(namespace, standings, deps.clock.now()) } };
  },
  checkNamespaceEntitlement: async ({ principal, params, body }, deps) => {
    const namespace = await findNamespace(deps, principal, params.namespace_id);
    return { status: 200, body: await checkEntitlement(deps, await scopeOf(deps, principal, namespace), body.feature, body.quantity) };
  },
});
