import { checkQuery, checkResult, entitlementSummary, usageBody, usageRecorded, usageReport } from '#core/entitlements/entitlement-schemas';
import type { RouteSpec } from '#core/http/route-types';
import { contextQuery, dataOf } from '#core/platform/common-schemas';

/** The routes of the entitlements function: checks, usage records, the summary and the month's usage. */
export const entitlementRoutes = [
  {
    operationId: 'checkEntitlement',
    method: 'GET',
    path: '/entitlements/check',
    auth: 'credential',
    scope: 'entitlements:read',
    summary: 'Check whether a quantity more of a feature is within the limit',
    tag: 'Entitlements',
    query: checkQuery,
    errors: ['NAMESPACE_ACCESS_DENIED'],
    responses: { 200: { description: 'The check; `allowed` false with `reason` when denied.', schema: checkResult } },
  },
  {
    operationId: 'recordUsage',
    method: 'POST',
    path: '/entitlements/usage',
    auth: 'credential',
    scope: 'entitlements:write',
    keepsEnvironmentsApart: true,
    summary: 'Record usage of a feature, atomically and never past its limit',
    tag: 'Entitlements',
    query: contextQuery,
    body: usageBody,
    errors: ['NAMESPACE_ACCESS_DENIED'],
    responses: { 200: { description: 'Recorded, or refused with `recorded` false when it would pass the limit.', schema: usageRecorded } },
  },
  {
    operationId: 'entitlementSummary',
    method: 'GET',
    path: '/entitlements/summary',
    auth: 'credential',
    scope: 'entitlements:read',
    summary: 'Every feature: used, limit, available, percentage',
    tag: 'Entitlements',
    query: contextQuery,
    errors: ['NAMESPACE_ACCESS_DENIED'],
    responses: { 200: { description: 'The summary of the namespace.', schema: dataOf(entitlementSummary) } },
  },
  {
    operationId: 'getUsage',
    method: 'GET',
    path: '/usage',
    auth: 'credential',
    scope: 'usage:read',
    summary: "The current month's usage: api_calls by day and by key, and every feature",
    tag: 'Entitlements',
    query: contextQuery,
    responses: { 200: { description: "The workspace's usage this month.", schema: dataOf(usageReport) } },
  },
] as const satisfies readonly RouteSpec[];
