import { z } from 'zod';
import { listQuerySchema } from '#core/lists';
import type { Route } from '#core/route-types';
import { apiKey, apiKeyId, createApiKeyBody, createdApiKey } from '#schemas/api-keys';
import { createdOf, dataOf, listOf } from '#schemas/common';
import {
  createWorkspaceBody,
  updateWorkspaceBody,
  workspace,
  workspaceId,
  workspaceSummary,
} from '#schemas/workspaces';

/**
 * THE route table. The CDK RestApi, the local gateway, scope enforcement, request
 * validation and openapi.yaml are all derived from it: an endpoint is one entry here
 * plus its handler.
 */
const contextQuery = z.strictObject({ workspace_id: z.string().optional(), namespace_id: z.string().optional() });

const workspaceList = {
  fields: ['id', 'name', 'slug', 'tier', 'created_at', 'updated_at'],
  sortable: ['name', 'slug', 'tier', 'created_at', 'updated_at'],
  searchable: ['name', 'slug'],
} as const;

const apiKeyList = {
  fields: ['id', 'name', 'prefix', 'scopes', 'rate_limit_tier', 'environment', 'workspace_id', 'last_used_at', 'expires_at', 'created_at'],
  sortable: ['name', 'environment', 'created_at', 'last_used_at', 'expires_at'],
  searchable: ['name', 'prefix'],
} as const;

const noContent = { description: 'Done; no body.' };

export const routes = [
  {
    operationId: 'listWorkspaces',
    method: 'GET',
    path: '/workspaces',
    function: 'workspaces',
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
    function: 'workspaces',
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
    function: 'workspaces',
    auth: 'credential',
    scope: 'workspaces:write',
    summary: 'Create a workspace owned by the acting user',
    tag: 'Workspaces',
    query: contextQuery,
    body: createWorkspaceBody,
    responses: { 201: { description: 'The new workspace.', schema: createdOf(workspace) } },
  },
  {
    operationId: 'updateWorkspace',
    method: 'PATCH',
    path: '/workspaces/{id}',
    function: 'workspaces',
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
    function: 'workspaces',
    auth: 'credential',
    scope: 'workspaces:delete',
    summary: 'Delete a workspace with its memberships and keys (owners only)',
    tag: 'Workspaces',
    params: z.object({ id: workspaceId }),
    query: contextQuery,
    responses: { 204: noContent },
  },
  {
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api-keys',
    function: 'api-keys',
    auth: 'credential',
    scope: 'api-keys:read',
    summary: "List the current workspace's API keys (never the keys themselves)",
    tag: 'API keys',
    query: listQuerySchema(apiKeyList),
    list: apiKeyList,
    responses: { 200: { description: 'A page of API keys.', schema: listOf(apiKey) } },
  },
  {
    operationId: 'getApiKey',
    method: 'GET',
    path: '/api-keys/{id}',
    function: 'api-keys',
    auth: 'credential',
    scope: 'api-keys:read',
    summary: 'Get an API key',
    tag: 'API keys',
    params: z.object({ id: apiKeyId }),
    query: contextQuery,
    responses: { 200: { description: 'The API key.', schema: dataOf(apiKey) } },
  },
  {
    operationId: 'createApiKey',
    method: 'POST',
    path: '/api-keys',
    function: 'api-keys',
    auth: 'credential',
    scope: 'api-keys:write',
    summary: 'Create an API key; the response shows the key once',
    tag: 'API keys',
    query: contextQuery,
    body: createApiKeyBody,
    responses: { 201: { description: 'The new key, with `key` in full.', schema: createdOf(createdApiKey) } },
  },
  {
    operationId: 'deleteApiKey',
    method: 'DELETE',
    path: '/api-keys/{id}',
    function: 'api-keys',
    auth: 'credential',
    scope: 'api-keys:delete',
    summary: 'Revoke an API key; its next use answers 401',
    tag: 'API keys',
    params: z.object({ id: apiKeyId }),
    query: contextQuery,
    responses: { 204: noContent },
  },
] as const satisfies readonly Route[];

export type AppRoute = (typeof routes)[number];
export type OperationId = AppRoute['operationId'];
