import { resumeWorkspace, suspendWorkspace } from '#core/domain/suspension';
import { setWorkspaceTier } from '#core/domain/workspace-tier';
import type { HandlersFor } from '#core/http/types';
import type { adminRoutes } from './routes.ts';

export const adminHandlers: HandlersFor<(typeof adminRoutes)[number]> = {
  updateWorkspaceAsAdmin: async ({ params, body }, deps) => ({
    status: 200,
    body: { message: `Workspace tier set to ${body.tier}.`, data: await setWorkspaceTier(deps, params.id, body.tier) },
  }),
  suspendWorkspace: async ({ params, body }, deps) => ({
    status: 200,
    body: { message: 'Workspace suspended.', data: await suspendWorkspace(deps, params.id, body.reason) },
  }),
  resumeWorkspace: async ({ params }, deps) => ({
    status: 200,
    body: { message: 'Workspace resumed.', data: await resumeWorkspace(deps, params.id) },
  }),
};
