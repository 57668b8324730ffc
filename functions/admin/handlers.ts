import { resumeWorkspace, suspendWorkspace } from '#core/domain/suspension';
import type { HandlersFor } from '#core/http/types';
import type { AppRoute } from '#routes';

export const adminHandlers: HandlersFor<AppRoute, 'admin'> = {
  suspendWorkspace: async ({ params, body }, deps) => ({
    status: 200,
    body: { message: 'Workspace suspended.', data: await suspendWorkspace(deps, params.id, body.reason) },
  }),
  resumeWorkspace: async ({ params }, deps) => ({
    status: 200,
    body: { message: 'Workspace resumed.', data: await resumeWorkspace(deps, params.id) },
  }),
};
