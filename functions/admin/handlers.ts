import { handlersFor } from '#core/http/handlers';
import { grantPackage, revokePackage } from '#core/namespaces/packages';
import { setBillingStatus } from '#core/workspaces/billing';
import { releasePixelDomain } from '#core/workspaces/pixel-domain-release';
import { resumeWorkspace, suspendWorkspace } from '#core/workspaces/suspension';
import { setWorkspaceTier } from '#core/workspaces/workspace-tier';
import type { adminRoutes } from './routes.ts';

export const adminHandlers = handlersFor<(typeof adminRoutes)[number]>()({
  updateWorkspaceAsAdmin: async ({ params, body }, deps) => {
    // The tier first: should the billing change fail after it, sending the same request again finishes it.
    const tiered = body.tier ? await setWorkspaceTier(deps, params.id, body.tier) : undefined;
    const billed = body.billing_status ? await setBillingStatus(deps, params.id, body.billing_status) : undefined;
    const done = [body.tier && `tier set to ${body.tier}`, body.billing_status && `marked ${body.billing_status}`].filter(Boolean);
    return { status: 200, body: { message: `Workspace ${done.join(' and ')}.`, data: (billed ?? tiered)! } };
  },
  suspendWorkspace: async ({ params, body }, deps) => ({
    status: 200,
    body: { message: 'Workspace suspended.', data: await suspendWorkspace(deps, params.id, body.reason) },
  }),
  resumeWorkspace: async ({ params }, deps) => ({
    status: 200,
    body: { message: 'Workspace resumed.', data: await resumeWorkspace(deps, params.id) },
  }),
  grantNamespacePackage: async ({ params, body }, deps) => ({
    status: 201,
    body: {
      message: 'Package granted.',
      data: await grantPackage(deps, params.namespace_id, {
        name: body.name,
        entitlements: body.entitlements,
        expiresAt: body.expires_at ?? undefined,
      }),
    },
  }),
  revokeNamespacePackage: async ({ params }, deps) => {
    await revokePackage(deps, params.namespace_id, params.package_id);
    return { status: 204 };
  },
  releasePixelDomain: async ({ params }, deps) => {
    await releasePixelDomain(deps, params.domain);
    return { status: 204 };
  },
});
