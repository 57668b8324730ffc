import type * as z from 'zod/mini';
import type { EventOrigin } from '#core/events/outbox';
import type { SeoIssueItem, SeoReportItem } from '#core/store/items';
import type { seoIssue, seoReport, seoReportSummary } from './seo-schemas.ts';

/**
 * Whose SEO data a request acts on: a workspace's, in the acting credential's environment
 * (a test key reads and writes test reports only). It is also where their events belong,
 * and what the `seo_reports` limit counts in.
 */
export type SeoOwner = EventOrigin;

export const seoIssueView = (item: SeoIssueItem): z.output<typeof seoIssue> => ({
  id: item.id,
  report_id: item.reportId,
  url: item.url,
  issue_type: item.issueType,
  severity: item.severity,
  details: { element: item.element ?? null, message: item.message ?? null },
  environment: item.environment,
  created_at: item.createdAt,
});

export const seoReportSummaryView = (item: SeoReportItem): z.output<typeof seoReportSummary> => ({
  id: item.id,
  url: item.url,
  scores: item.scores,
  issue_count: item.issueCount,
  issues_by_severity: item.issuesBySeverity,
  environment: item.environment,
  workspace_id: item.workspaceId,
  created_at: item.createdAt,
});

/** A report with its issues, as its create answers and its `seo.report_created` event carries it. */
export const seoReportView = (item: SeoReportItem, issues: readonly SeoIssueItem[]): z.output<typeof seoReport> => ({
  ...seoReportSummaryView(item),
  issues: issues.map(seoIssueView),
});
