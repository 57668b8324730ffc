import * as z from 'zod/mini';
import { apiKey, apiKeyId, createApiKeyBody, createdApiKey, rotateApiKeyBody, rotatedApiKey } from '#core/api-keys/api-key-schemas';
import { keyStatuses } from '#core/api-keys/api-key-status';
import type { RouteSpec } from '#core/http/route-types';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { contextQuery, createdOf, dataOf, fieldsOf, listOf, noContent } from '#core/platform/common-schemas';

const apiKeyList = {
  // allowed_ips has never been a choice of fields= (openapi.yaml lists the choices): offering it is a change of the API of its own.
  fields: fieldsOf(apiKey).filter((field) => field !== 'allowed_ips'),
  sortable: ['name', 'environment', 'created_at', 'last_used_at', 'expires_at'],
  searchable: ['name', 'prefix'],
  statusField: 'status',
  statusValues: keyStatuses,
} as const satisfies ListSpec<keyof typeof apiKey.shape>;

/** The routes of the api-keys function; functions/routes.ts composes every folder's table into the registry. */
export const apiKeyRoutes = [
  {
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api-keys',
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
    auth: 'credential',
    scope: 'api-keys:write',
    keepsEnvironmentsApart: true,
    summary: 'Create an API key; the response shows the key once',
    tag: 'API keys',
    query: contextQuery,
    body: createApiKeyBody,
    errors: ['ENTITLEMENT_DENIED'],
    responses: { 201: { description: 'The new key, with `key` in full.', schema: createdOf(createdApiKey) } },
  },
  {
    operationId: 'deleteApiKey',
    method: 'DELETE',
    path: '/api-keys/{id}',
    auth: 'credential',
    scope: 'api-keys:delete',
    keepsEnvironmentsApart: true,
    summary: 'Revoke an API key; its next use answers 401',
    tag: 'API keys',
    params: z.object({ id: apiKeyId }),
    query: contextQuery,
    responses: { 204: noContent },
  },
  {
    operationId: 'rotateApiKey',
    method: 'POST',
    path: '/api-keys/{id}/rotate',
    auth: 'credential',
    scope: 'api-keys:write',
    keepsEnvironmentsApart: true,
    summary: 'Rotate an API key: a new key now, the old one until the grace period ends',
    tag: 'API keys',
    params: z.object({ id: apiKeyId }),
    query: contextQuery,
    body: rotateApiKeyBody,
    errors: ['ENTITLEMENT_DENIED'],
    responses: { 200: { description: 'The new key, with `key` in full, and when the old one stops.', schema: createdOf(rotatedApiKey) } },
  },
] as const satisfies readonly RouteSpec[];
