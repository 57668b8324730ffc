import * as z from 'zod/mini';
import { apiKey, apiKeyId, createApiKeyBody, createdApiKey, rotateApiKeyBody, rotatedApiKey } from '#core/api-keys/api-key-schemas';
import { keyStatuses } from '#core/api-keys/api-key-status';
import { routeTable } from '#core/http/route-table';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { contextQuery, createdOf, dataOf, fieldsOf, noContent } from '#core/platform/common-schemas';

const apiKeyList = {
  // allowed_ips has never been a choice of fields= (openapi.yaml lists the choices): offering it is a change of the API of its own.
  fields: fieldsOf(apiKey).filter((field) => field !== 'allowed_ips'),
  sortable: ['name', 'environment', 'created_at', 'last_used_at', 'expires_at'],
  searchable: ['name', 'prefix'],
  statusField: 'status',
  statusValues: keyStatuses,
} as const satisfies ListSpec<keyof typeof apiKey.shape>;

/** The routes of the api-keys function; functions/routes.ts composes every folder's table into the registry. */
export const apiKeyRoutes = routeTable({ tag: 'API keys', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api-keys',
    scope: 'api-keys:read',
    summary: "List the current workspace's API keys (never the keys themselves)",
    query: listQuerySchema(apiKeyList),
    list: apiKeyList,
    responses: { 200: { description: 'A page of API keys.', schema: listOf(apiKey) } },
  },
  {
    operationId: 'getApiKey',
    method: 'GET',
    path: '/api-keys/{id}',
    scope: 'api-keys:read',
    summary: 'Get an API key',
    params: z.object({ id: apiKeyId }),
    responses: { 200: { description: 'The API key.', schema: dataOf(apiKey) } },
  },
  {
    operationId: 'createApiKey',
    description:
      'Without `scopes` the key gets `*:read` and `*:write`. The key itself (`sk_live_…` or `sk_test_…`) is in this answer only: only its bcrypt hash is stored, so keep it now. A key may be narrowed to a tier, an expiry and `allowed_ips` (addresses or CIDR ranges), never wider than the credential creating it.',
    method: 'POST',
    path: '/api-keys',
    scope: 'api-keys:write',
    keepsEnvironmentsApart: true,
    summary: 'Create an API key; the response shows the key once',
    body: createApiKeyBody,
    errors: ['ENTITLEMENT_DENIED'],
    responses: { 201: { description: 'The new key, with `key` in full.', schema: createdOf(createdApiKey) } },
  },
  {
    operationId: 'deleteApiKey',
    method: 'DELETE',
    path: '/api-keys/{id}',
    scope: 'api-keys:delete',
    keepsEnvironmentsApart: true,
    summary: 'Revoke an API key; its next use answers 401',
    params: z.object({ id: apiKeyId }),
    responses: { 204: noContent },
  },
  {
    operationId: 'rotateApiKey',
    description:
      'The new key is in this answer only. The old one keeps working until `grace_period_ends_at` (`grace_period_hours`, default 24; 0 revokes it at once), so deploy the new key, then let the old one lapse or revoke it.',
    method: 'POST',
    path: '/api-keys/{id}/rotate',
    scope: 'api-keys:write',
    keepsEnvironmentsApart: true,
    summary: 'Rotate an API key: a new key now, the old one until the grace period ends',
    params: z.object({ id: apiKeyId }),
    body: rotateApiKeyBody,
    errors: ['ENTITLEMENT_DENIED'],
    responses: { 200: { description: 'The new key, with `key` in full, and when the old one stops.', schema: createdOf(rotatedApiKey) } },
  },
]);
