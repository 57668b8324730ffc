import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { grantedPackage, grantPackageBody, namespaceId, packageId } from '#core/namespaces/namespace-schemas';
import { pixelDomainParam } from '#core/pixel/pixel-settings';
import { createdOf, noContent } from '#core/platform/common-schemas';
import { workspaceId } from '#core/tenancy/workspace-schemas';
import { adminWorkspace, adminWorkspaceChanges, suspendBody } from '#core/workspaces/admin-schemas';

/** The routes of the admin function; functions/routes.ts composes every folder's table into the registry. */
export const adminRoutes = routeTable({ tag: 'Admin', auth: 'credential', scope: 'admin:*', platformAdmin: true, allowSuspended: true }, [
  {
    operationId: 'updateWorkspaceAsAdmin',
    method: 'PATCH',
    path: '/admin/workspaces/{id}',
    summary:
      "Change a workspace's tier (above its creator's own if need be), or mark it unpaid (402 PAYMENT_REQUIRED) or paid (platform admins)",
    params: z.object({ id: workspaceId }),
    body: adminWorkspaceChanges,
    responses: { 200: { description: 'The workspace with its new tier or billing status.', schema: createdOf(adminWorkspace) } },
  },
  {
    operationId: 'suspendWorkspace',
    method: 'POST',
    path: '/admin/workspaces/{id}/suspend',
    summary: 'Suspend a workspace: every request in it answers 403 WORKSPACE_SUSPENDED (platform admins)',
    params: z.object({ id: workspaceId }),
    body: suspendBody,
    responses: {
      200: {
        description: 'The suspended workspace (a suspended one given a new reason keeps its suspended_at).',
        schema: createdOf(adminWorkspace),
      },
    },
  },
  {
    operationId: 'resumeWorkspace',
    method: 'POST',
    path: '/admin/workspaces/{id}/resume',
    summary: 'Lift a suspension (platform admins)',
    params: z.object({ id: workspaceId }),
    responses: { 200: { description: 'The workspace, no longer suspended.', schema: createdOf(adminWorkspace) } },
  },
  {
    operationId: 'grantNamespacePackage',
    method: 'POST',
    path: '/admin/namespaces/{namespace_id}/packages',
    summary: 'Grant a package of extra entitlements to a namespace, until a date if given (platform admins)',
    params: z.object({ namespace_id: namespaceId }),
    body: grantPackageBody,
    errors: ['RESOURCE_LOCKED'],
    responses: { 201: { description: "The package; the namespace's limits rise at once.", schema: createdOf(grantedPackage) } },
  },
  {
    operationId: 'revokeNamespacePackage',
    method: 'DELETE',
    path: '/admin/namespaces/{namespace_id}/packages/{package_id}',
    summary: 'Revoke a package of a namespace at once (platform admins)',
    params: z.object({ namespace_id: namespaceId, package_id: packageId }),
    errors: ['RESOURCE_LOCKED'],
    responses: { 204: noContent },
  },
  {
    operationId: 'releasePixelDomain',
    method: 'DELETE',
    path: '/admin/pixel-domains/{domain}',
    summary: "Release a claimed pixel domain: out of its workspace's settings, free for another to claim (platform admins)",
    params: z.object({ domain: pixelDomainParam }),
    errors: ['RESOURCE_LOCKED'],
    responses: { 204: noContent },
  },
]);
