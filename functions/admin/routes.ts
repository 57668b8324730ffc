import * as z from 'zod/mini';
import type { RouteSpec } from '#core/http/route-types';
import { grantedPackage, grantPackageBody, namespaceId, packageId } from '#core/namespaces/namespace-schemas';
import { createdOf, noContent } from '#core/platform/common-schemas';
import { workspaceId } from '#core/tenancy/workspace-schemas';
import { adminWorkspace, adminWorkspaceChanges, suspendBody } from '#core/workspaces/admin-schemas';

/** The routes of the admin function; functions/routes.ts composes every folder's table into the registry. */
export const adminRoutes = [
  {
    operationId: 'updateWorkspaceAsAdmin',
    method: 'PATCH',
    path: '/admin/workspaces/{id}',
    auth: 'credential',
    scope: 'admin:*',
    platformAdmin: true,
    allowSuspended: true,
    summary: "Change a workspace's tier, above its creator's own if need be (platform admins)",
    tag: 'Admin',
    params: z.object({ id: workspaceId }),
    body: adminWorkspaceChanges,
    responses: { 200: { description: 'The workspace with its new tier.', schema: createdOf(adminWorkspace) } },
  },
  {
    operationId: 'suspendWorkspace',
    method: 'POST',
    path: '/admin/workspaces/{id}/suspend',
    auth: 'credential',
    scope: 'admin:*',
    platformAdmin: true,
    allowSuspended: true,
    summary: 'Suspend a workspace: every request in it answers 403 WORKSPACE_SUSPENDED (platform admins)',
    tag: 'Admin',
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
    auth: 'credential',
    scope: 'admin:*',
    platformAdmin: true,
    allowSuspended: true,
    summary: 'Lift a suspension (platform admins)',
    tag: 'Admin',
    params: z.object({ id: workspaceId }),
    responses: { 200: { description: 'The workspace, no longer suspended.', schema: createdOf(adminWorkspace) } },
  },
  {
    operationId: 'grantNamespacePackage',
    method: 'POST',
    path: '/admin/namespaces/{namespace_id}/packages',
    auth: 'credential',
    scope: 'admin:*',
    platformAdmin: true,
    allowSuspended: true,
    summary: 'Grant a package of extra entitlements to a namespace, until a date if given (platform admins)',
    tag: 'Admin',
    params: z.object({ namespace_id: namespaceId }),
    body: grantPackageBody,
    errors: ['RESOURCE_LOCKED'],
    responses: { 201: { description: "The package; the namespace's limits rise at once.", schema: createdOf(grantedPackage) } },
  },
  {
    operationId: 'revokeNamespacePackage',
    method: 'DELETE',
    path: '/admin/namespaces/{namespace_id}/packages/{package_id}',
    auth: 'credential',
    scope: 'admin:*',
    platformAdmin: true,
    allowSuspended: true,
    summary: 'Revoke a package of a namespace at once (platform admins)',
    tag: 'Admin',
    params: z.object({ namespace_id: namespaceId, package_id: packageId }),
    errors: ['RESOURCE_LOCKED'],
    responses: { 204: noContent },
  },
] as const satisfies readonly RouteSpec[];
