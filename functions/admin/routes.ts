import type { RouteSpec } from '#core/route-types';
import { adminWorkspace, adminWorkspaceChanges, suspendBody } from '#schemas/admin';
import { createdOf } from '#schemas/common';
import { workspaceId } from '#schemas/workspaces';
import * as z from 'zod/mini';

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
    responses: { 200: { description: 'The suspended workspace.', schema: createdOf(adminWorkspace) } },
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
] as const satisfies readonly RouteSpec[];
