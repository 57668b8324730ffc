import * as z from 'zod/mini';
import { checkBody, checkResult } from '#core/entitlements/entitlement-schemas';
import { routeTable } from '#core/http/route-table';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { namespace, namespaceDetail, namespaceId } from '#core/namespaces/namespace-schemas';
import { contextQuery, dataOf, fieldsOf } from '#core/platform/common-schemas';

const namespaceList = {
  fields: fieldsOf(namespace),
  sortable: ['name', 'slug', 'owner_type', 'is_default', 'is_active', 'created_at'],
  searchable: ['name', 'slug'],
  filters: { owner_type: ['User', 'Workspace'], is_active: ['true', 'false'] },
} as const satisfies ListSpec<keyof typeof namespace.shape>;

/**
 * The routes of the namespaces function. The spec leaves their scopes open: reading
 * namespaces takes `namespaces:read`; checking an entitlement in one takes
 * `entitlements:read`, as GET /entitlements/check does.
 */
export const namespaceRoutes = routeTable({ tag: 'Namespaces', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'listNamespaces',
    method: 'GET',
    path: '/namespaces',
    scope: 'namespaces:read',
    summary: "List the namespaces you may use: your own and your workspaces' default namespaces",
    query: listQuerySchema(namespaceList),
    list: namespaceList,
    responses: {
      200: { description: 'A page of namespaces; `workspace_id` keeps that workspace of yours alone.', schema: listOf(namespace) },
    },
  },
  {
    operationId: 'getNamespace',
    method: 'GET',
    path: '/namespaces/{namespace_id}',
    scope: 'namespaces:read',
    summary: 'Get a namespace with its packages and entitlements',
    params: z.object({ namespace_id: namespaceId }),
    responses: { 200: { description: 'The namespace.', schema: dataOf(namespaceDetail) } },
  },
  {
    operationId: 'checkNamespaceEntitlement',
    method: 'POST',
    path: '/namespaces/{namespace_id}/entitlements/check',
    scope: 'entitlements:read',
    keepsEnvironmentsApart: true,
    summary: 'Check whether a quantity more of a feature is within the limit of a namespace',
    params: z.object({ namespace_id: namespaceId }),
    body: checkBody,
    responses: { 200: { description: 'The check; `allowed` false with `reason` when denied.', schema: checkResult } },
  },
]);
