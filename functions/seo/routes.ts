import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { contextQuery, createdOf, fieldsOf, idOf } from '#core/platform/common-schemas';
import { createSeoReportBody, seoIssue, seoReport, seoReportSummary, seoReportsQueryUrl } from '#core/seo/seo-schemas';
import { seoSeverities } from '#core/store/entities/seo-severity';

const issueList = {
  fields: fieldsOf(seoIssue),
  sortable: ['created_at', 'severity', 'issue_type', 'url'],
  searchable: ['issue_type', 'url'],
  filters: { severity: seoSeverities },
  textFilters: ['url', 'issue_type'],
} as const satisfies ListSpec<keyof typeof seoIssue.shape>;

const reportList = {
  fields: fieldsOf(seoReportSummary),
  sortable: ['created_at'],
  searchable: [],
} as const satisfies ListSpec<keyof typeof seoReportSummary.shape>;

/**
 * The routes of the seo function: reports of audited pages and the issues they found, in
 * the acting credential's environment (a test key writes and reads test reports only).
 */
export const seoRoutes = routeTable({ tag: 'SEO', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'createSeoReport',
    method: 'POST',
    path: '/seo/report',
    scope: 'seo:write',
    keepsEnvironmentsApart: true,
    summary: "Store an SEO report of a page: its four scores and up to 50 issues; counts against the month's seo_reports",
    body: createSeoReportBody,
    errors: ['ENTITLEMENT_DENIED'],
    responses: { 201: { description: 'The report with its issues.', schema: createdOf(seoReport) } },
  },
  {
    operationId: 'listSeoIssues',
    method: 'GET',
    path: '/seo/issues/{workspace_id}',
    scope: 'seo:read',
    summary: "List a workspace's SEO issues in your credential's environment, newest first; a workspace you cannot act in is 404",
    params: z.object({ workspace_id: idOf('workspace', 'a workspace id') }),
    query: listQuerySchema(issueList),
    list: issueList,
    responses: { 200: { description: 'A page of SEO issues.', schema: listOf(seoIssue) } },
  },
  {
    operationId: 'listSeoReports',
    method: 'GET',
    path: '/seo/reports',
    scope: 'seo:read',
    summary: "The score history of one URL: its reports in the acting workspace and your credential's environment, newest first",
    query: listQuerySchema(reportList, { url: seoReportsQueryUrl }),
    list: reportList,
    responses: { 200: { description: 'A page of reports, without their issues.', schema: listOf(seoReportSummary) } },
  },
]);
