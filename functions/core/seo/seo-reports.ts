import type * as z from 'zod/mini';
import { countOneMoreWithin, withinLimit } from '#core/entitlements/limited-counts';
import { forgetUsage } from '#core/entitlements/usage';
import { commitWithEvents } from '#core/events/outbox';
import type { ListSource } from '#core/lists/list-source';
import { workspaceScope } from '#core/namespaces/workspace-scope';
import { idsCreatedWithin, newId } from '#core/platform/ids';
import type { Deps } from '#core/ports/deps';
import { seoSeverities } from '#core/store/entities/seo-severity';
import type { SeoIssueItem, SeoReportItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { counted, countMore, countOneMore } from '#core/store/list-counts';
import { madeInOpenWorkspace, openWorkspace } from '#core/tenancy/workspace-open';
import { forgetSeoDataOf, issuesCollectionOf, reportsCollectionOf } from './seo-removal.ts';
import type { createSeoReportBody, seoReport } from './seo-schemas.ts';
import { normaliseSeoUrl, urlKeyOf } from './seo-urls.ts';
import { type SeoOwner, seoIssueView, seoReportSummaryView, seoReportView } from './seo-view.ts';

export type NewSeoReport = z.output<typeof createSeoReportBody>;

const bySeverity = (issues: NewSeoReport['issues']) =>
  Object.fromEntries(seoSeverities.map((severity) => [severity, issues.filter((issue) => issue.severity === severity).length]));

/**
 * Stores a report and its issues in one transaction with their list counts, the event and the
 * +1 of the month's `seo_reports`, conditioned on its limit so that racing reports never pass
 * it. At most 50 issues keep the transaction within DynamoDB's 100 items.
 */
export async function createSeoReport(deps: Deps, owner: SeoOwner, input: NewSeoReport): Promise<z.output<typeof seoReport>> {
  const workspace = await openWorkspace(deps, owner.workspaceId);
  const now = deps.clock.now();
  const createdAt = now.toISOString();
  const url = normaliseSeoUrl(input.url);
  const report: SeoReportItem = {
    id: newId('seoReport', now),
    workspaceId: owner.workspaceId,
    environment: owner.environment,
    url,
    urlKey: urlKeyOf(url),
    scores: input.scores,
    issueCount: input.issues.length,
    issuesBySeverity: bySeverity(input.issues),
    createdAt,
  };
  const issues = input.issues.map(
    (issue): SeoIssueItem => ({
      id: newId('seoIssue', now),
      reportId: report.id,
      workspaceId: owner.workspaceId,
      environment: owner.environment,
      url,
      issueType: issue.type,
      severity: issue.severity,
      ...(issue.element !== undefined && { element: issue.element }),
      ...(issue.message !== undefined && { message: issue.message }),
      createdAt,
    }),
  );
  const view = seoReportView(report, issues);
  const scope = await workspaceScope(deps, workspace, owner.environment);
  await madeInOpenWorkspace(
    deps,
    owner.workspaceId,
    () =>
      withinLimit(deps, scope, 'seo_reports', (limit) =>
        commitWithEvents(
          deps,
          [{ type: 'seo.report_created', origin: owner, data: view }],
          ({ seoReport, seoIssue, counter, usageCounter }) => [
            seoReport.create(report).commit(),
            ...issues.map((issue) => seoIssue.create(issue).commit()),
            countOneMore(counter, reportsCollectionOf(owner, report.urlKey)),
            ...(issues.length ? [countMore(counter, issuesCollectionOf(owner), issues.length)] : []),
            countOneMoreWithin(usageCounter, scope, 'seo_reports', limit, now),
          ],
        ),
      ),
    // Made as its workspace is being deleted: gone with it, with the counts its create moved.
    async () => {
      await forgetSeoDataOf(deps, owner.workspaceId);
      await forgetUsage(deps, owner.workspaceId);
    },
  );
  return view;
}

/** The owner's issues in creation order (the issues of one report share their created_at): one Query of their environment. */
export function seoIssuesOf(deps: Deps, owner: SeoOwner): ListSource<SeoIssueItem, ReturnType<typeof seoIssueView>> {
  const { seoIssue } = deps.db.entities;
  return {
    ...counted(deps.db, issuesCollectionOf(owner)),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('seoIssue', after, before),
    read: keyOrderReader(seoIssue, 'byWorkspace', (range) => {
      const issues = seoIssue.query.byWorkspace({ workspaceId: owner.workspaceId, environment: owner.environment });
      return range ? issues.between({ id: range.from }, { id: range.to }) : issues;
    }),
    view: async (rows) => rows.map(seoIssueView),
  };
}

/** The owner's reports of one URL (its score history) in creation order: one Query of the URL's key range. */
export function seoReportsOfUrl(
  deps: Deps,
  owner: SeoOwner,
  reportedUrl: string,
): ListSource<SeoReportItem, ReturnType<typeof seoReportSummaryView>> {
  const { seoReport } = deps.db.entities;
  const urlKey = urlKeyOf(normaliseSeoUrl(reportedUrl));
  return {
    ...counted(deps.db, reportsCollectionOf(owner, urlKey)),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('seoReport', after, before),
    read: keyOrderReader(seoReport, 'byWorkspace', (range) => {
      const reports = seoReport.query.byWorkspace({ workspaceId: owner.workspaceId, environment: owner.environment, urlKey });
      return range ? reports.between({ id: range.from }, { id: range.to }) : reports;
    }),
    view: async (rows) => rows.map(seoReportSummaryView),
  };
}
