import { requireUnboundCredential } from '#core/access/issuance-limits';
import { handlersFor } from '#core/http/handlers';
import { listPage } from '#core/lists/list-page';
import { createWorkspace, deleteWorkspace, getWorkspace, updateWorkspace, workspacesOf } from '#core/workspaces/workspaces';
import type { workspaceRoutes } from './routes.ts';

export const workspaceHandlers = handlersFor<(typeof workspaceRoutes)[number]>()({
  listWorkspaces: async ({ principal, query, route, url }, deps) => ({
    status: 200,
    body: await listPage(workspacesOf(deps, principal), query, route.list, url),
  }),
  getWorkspace: async ({ principal, params }, deps) => ({
    status: 200,
    body: { data: await getWorkspace(deps, principal, params.id) },
  }),
  createWorkspace: async ({ principal, body, workspaceId }, deps) => {
    requireUnboundCredential(principal, 'create workspaces');
    const created = await createWorkspace(deps, principal.userId, body, { acting: principal, actingIn: workspaceId });
    return { status: 201, body: { message: 'Workspace created.', data: created } };
  },
  updateWorkspace: async ({ principal, params, body }, deps) => ({
    status: 200,
    body: { message: 'Workspace updated.', data: await updateWorkspace(deps, principal, params.id, body) },
  }),
  deleteWorkspace: async ({ principal, params, workspaceId }, deps) => {
    await deleteWorkspace(deps, principal, params.id, { home: principal.workspaceId, actingIn: workspaceId });
    return { status: 204 };
  },
});
