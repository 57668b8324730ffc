import * as z from 'zod/mini';
import type { RouteSpec } from '#core/http/route-types';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { contextQuery, createdOf, dataOf, fieldsOf, listOf, noContent } from '#core/platform/common-schemas';
import { createWorkspaceBody, updateWorkspaceBody, workspace, workspaceId, workspaceSummary } from '#core/tenancy/workspace-schemas';

const workspaceList = {
  fields: fieldsOf(workspaceSummary),
  sortable: ['name', 'slug', 'tier', 'created_at', 'updated_at'],
  searchable: ['name', 'slug'],
} as const satisfies ListSpec<keyof typeof workspaceSummary.shape>;

/** The routes of the workspaces function; functions/routes.ts composes every folder's table into the registry. */
export const workspaceRoutes = [
  {
    operationId: 'listWorkspaces',
    method: 'GET',
    path: '/workspaces',
    auth: 'credential',
    scope: 'workspaces:read',
    summary: 'List the workspaces the acting user belongs to',
    tag: 'Workspaces',
    query: listQuerySchema(workspaceList),
    list: workspaceList,
    responses: { 200: { description: 'A page of workspaces.', schema: listOf(workspaceSummary) } },
  },
  {
    operationId: 'getWorkspace',
    method: 'GET',
    path: '/workspaces/{id}',
    auth: 'credential',
    scope: 'workspaces:read',
    summary: 'Get a workspace with its settings',
    tag: 'Workspaces',
    params: z.object({ id: workspaceId }),
    query: contextQuery,
    responses: { 200: { description: 'The workspace.', schema: dataOf(workspace) } },
  },
  {
    operationId: 'createWorkspace',
    method: 'POST',
    path: '/workspaces',
    auth: 'credential',
    scope: 'workspaces:write',
    summary: 'Create a workspace owned by the acting user',
    tag: 'Workspaces',
    query: contextQuery,
    body: createWorkspaceBody,
    responses: { 201: { description: 'The new workspace.', schema: createdOf(workspace) } },
    errors: ['ENTITLEMENT_DENIED'],
  },
  {
    operationId: 'updateWorkspace',
    method: 'PATCH',
    path: '/workspaces/{id}',
    auth: 'credential',
    scope: 'workspaces:write',
    summary: 'Rename a workspace or change its settings (owners and admins)',
    tag: 'Workspaces',
    params: z.object({ id: workspaceId }),
    query: contextQuery,
    body: updateWorkspaceBody,
    responses: { 200: { description: 'The updated workspace.', schema: createdOf(workspace) } },
  },
  {
    operationId: 'deleteWorkspace',
    method: 'DELETE',
    path: '/workspaces/{id}',
    auth: 'credential',
    scope: 'workspaces:delete',
    summary: 'Delete a workspace with its memberships and keys (owners only)',
    tag: 'Workspaces',
    params: z.object({ id: workspaceId }),
    query: contextQuery,
    responses: { 204: noContent },
  },
] as const satisfies readonly RouteSpec[];
