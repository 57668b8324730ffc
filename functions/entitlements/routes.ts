import { checkQuery, checkResult, entitlementSummary, usageBody, usageRecorded, usageReport } from '#core/entitlements/entitlement-schemas';
import { routeTable } from '#core/http/route-table';
import { contextQuery, dataOf } from '#core/platform/common-schemas';

/** The routes of the entitlements function: checks, usage records, the summary and the month's usage. */
export const entitlementRoutes = routeTable({ tag: 'Entitlements', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'checkEntitlement',
    method: 'GET',
    path: '/entitlements/check',
    scope: 'entitlements:read',
    summary: 'Check whether a quantity more of a feature is within the limit',
    query: checkQuery,
    errors: ['NAMESPACE_ACCESS_DENIED'],
    responses: { 200: { description: 'The check; `allowed` false with `reason` when denied.', schema: checkResult } },
  },
  {
    operationId: 'recordUsage',
    method: 'POST',
    path: '/entitlements/usage',
    scope: 'entitlements:write',
    keepsEnvironmentsApart: true,
    summary: 'Record usage of a feature, atomically and never past its limit',
    body: usageBody,
    errors: ['NAMESPACE_ACCESS_DENIED'],
    responses: { 200: { description: 'Recorded, or refused with `recorded` false when it would pass the limit.', schema: usageRecorded } },
  },
  {
    operationId: 'entitlementSummary',
    method: 'GET',
    path: '/entitlements/summary',
    scope: 'entitlements:read',
    summary: 'Every feature: used, limit, available, percentage',
    errors: ['NAMESPACE_ACCESS_DENIED'],
    responses: { 200: { description: 'The summary of the namespace.', schema: dataOf(entitlementSummary) } },
  },
  {
    operationId: 'getUsage',
    method: 'GET',
    path: '/usage',
    scope: 'usage:read',
    summary: "The current month's usage: api_calls by day and by key, and every feature",
    responses: { 200: { description: "The workspace's usage this month.", schema: dataOf(usageReport) } },
  },
]);
