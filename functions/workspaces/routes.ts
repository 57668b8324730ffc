import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { contextQuery, createdOf, dataOf, fieldsOf, noContent } from '#core/platform/common-schemas';
import { createWorkspaceBody, updateWorkspaceBody, workspace, workspaceId, workspaceSummary } from '#core/tenancy/workspace-schemas';

const workspaceList = {
  fields: fieldsOf(workspaceSummary),
  sortable: ['name', 'slug', 'tier', 'created_at', 'updated_at'],
  searchable: ['name', 'slug'],
} as const satisfies ListSpec<keyof typeof workspaceSummary.shape>;

/** The routes of the workspaces function; functions/routes.ts composes every folder's table into the registry. */
export const workspaceRoutes = routeTable({ tag: 'Workspaces', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'listWorkspaces',
    allowUnpaid: true,
    method: 'GET',
    path: '/workspaces',
    scope: 'workspaces:read',
    summary: 'List the workspaces the acting user belongs to',
    query: listQuerySchema(workspaceList),
    list: workspaceList,
    responses: { 200: { description: 'A page of workspaces.', schema: listOf(workspaceSummary) } },
  },
  {
    operationId: 'getWorkspace',
    allowUnpaid: true,
    method: 'GET',
    path: '/workspaces/{id}',
    scope: 'workspaces:read',
    summary: 'Get a workspace with its settings',
    params: z.object({ id: workspaceId }),
    responses: { 200: { description: 'The workspace.', schema: dataOf(workspace) } },
  },
  {
    operationId: 'createWorkspace',
    description: "The acting user becomes its owner. Its tier is at most the user's own (a platform admin may set it higher).",
    method: 'POST',
    path: '/workspaces',
    scope: 'workspaces:write',
    summary: 'Create a workspace owned by the acting user',
    body: createWorkspaceBody,
    responses: { 201: { description: 'The new workspace.', schema: createdOf(workspace) } },
    errors: ['ENTITLEMENT_DENIED'],
  },
  {
    operationId: 'updateWorkspace',
    method: 'PATCH',
    path: '/workspaces/{id}',
    scope: 'workspaces:write',
    summary: 'Rename a workspace or change its settings (owners and admins)',
    params: z.object({ id: workspaceId }),
    body: updateWorkspaceBody,
    responses: { 200: { description: 'The updated workspace.', schema: createdOf(workspace) } },
  },
  {
    operationId: 'deleteWorkspace',
    allowUnpaid: true,
    method: 'DELETE',
    path: '/workspaces/{id}',
    scope: 'workspaces:delete',
    summary: 'Delete a workspace with its memberships and keys (owners only)',
    params: z.object({ id: workspaceId }),
    responses: { 204: noContent },
  },
]);
