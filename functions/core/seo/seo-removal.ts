import { type Environment, environments } from '#core/platform/environments';
import type { Deps } from '#core/ports/deps';
import { collections, forgetCount } from '#core/store/list-counts';
import { eachPage, purgePageSize } from '#core/store/query-pages';
import type { SeoOwner } from './seo-view.ts';

export const issuesCollectionOf = (owner: SeoOwner) => collections.seoIssuesOfWorkspace(owner.workspaceId, owner.environment);

export const reportsCollectionOf = (owner: SeoOwner, urlKey: string) =>
  collections.seoReportsOfUrl(owner.workspaceId, owner.environment, urlKey);

/**
 * Deletes every SEO report and issue of a workspace, in both environments, with their list
 * counts (its `seo_reports` usage goes with the workspace's usage counters). Page by page,
 * so that a workspace with many reports is never held in memory at once. Apart from
 * seo-reports.ts so that the workspaces function bundles only this.
 */
export async function forgetSeoDataOf(deps: Deps, workspaceId: string): Promise<void> {
  for (const environment of environments) {
    const owner = { workspaceId, environment };
    const urlKeys = await forgetReports(deps, workspaceId, environment);
    for (const urlKey of urlKeys) await forgetCount(deps.db, reportsCollectionOf(owner, urlKey));
    await forgetIssues(deps, workspaceId, environment);
    await forgetCount(deps.db, issuesCollectionOf(owner));
  }
}

/** Deletes the reports of one environment; answers the keys of the URLs they were of. */
async function forgetReports(deps: Deps, workspaceId: string, environment: Environment): Promise<Set<string>> {
  const { seoReport } = deps.db.entities;
  const urlKeys = new Set<string>();
  await eachPage(
    (cursor) => seoReport.query.byWorkspace({ workspaceId, environment }).go({ cursor, limit: purgePageSize, consistent: true }),
    (reports) => {
      for (const report of reports) urlKeys.add(report.urlKey);
      return seoReport.delete(reports.map(({ urlKey, id }) => ({ workspaceId, environment, urlKey, id }))).go();
    },
  );
  return urlKeys;
}

function forgetIssues(deps: Deps, workspaceId: string, environment: Environment): Promise<void> {
  const { seoIssue } = deps.db.entities;
  return eachPage(
    (cursor) => seoIssue.query.byWorkspace({ workspaceId, environment }).go({ cursor, limit: purgePageSize, consistent: true }),
    (issues) => seoIssue.delete(issues.map(({ id }) => ({ workspaceId, environment, id }))).go(),
  );
}
