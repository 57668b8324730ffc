import { checkEntitlement, standingsOf } from '#core/entitlements/entitlements';
import { recordUsage } from '#core/entitlements/recording';
import { usageReport } from '#core/entitlements/usage-report';
import { handlersFor } from '#core/http/handlers';
import type { entitlementRoutes } from './routes.ts';
import { requestScope, workspaceRequestScope } from './scope.ts';

export const entitlementHandlers = handlersFor<(typeof entitlementRoutes)[number]>()({
  checkEntitlement: async (request, deps) => ({
    status: 200,
    body: await checkEntitlement(deps, await requestScope(deps, request), request.query.feature, request.query.quantity),
  }),
  recordUsage: async (request, deps) => ({
    status: 200,
    body: await recordUsage(deps, await requestScope(deps, request), request.body),
  }),
  entitlementSummary: async (request, deps) => {
    const scope = await requestScope(deps, request);
    return {
      status: 200,
      body: {
        data: {
          workspace_id: request.workspaceId,
          namespace_id: scope.namespaceId,
          environment: scope.environment,
          tier: scope.tier,
          entitlements: await standingsOf(deps, scope),
        },
      },
    };
  },
  getUsage: async (request, deps) => {
    const scope = await workspaceRequestScope(deps, request);
    return { status: 200, body: { data: await usageReport(deps, { ...scope, ownerType: 'Workspace' }) } };
  },
});
