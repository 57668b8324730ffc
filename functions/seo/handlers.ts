import type { Principal } from '#core/access/principal';
import { resolveWorkspace } from '#core/http/acting-workspace';
import { handlersFor } from '#core/http/handlers';
import { listPage } from '#core/lists/list-page';
import { AccessDenied, NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { createSeoReport, seoIssuesOf, seoReportsOfUrl } from '#core/seo/seo-reports';
import { asStoredUrl } from '#core/seo/seo-urls';
import type { SeoOwner } from '#core/seo/seo-view';
import type { seoRoutes } from './routes.ts';

/** The request's SEO data: its workspace's, in its credential's environment. */
const ownerOf = ({ principal, workspaceId }: { principal: Principal; workspaceId: string }): SeoOwner => ({
  workspaceId,
  environment: principal.environment,
});

/**
 * The workspace a path names, checked as X-Workspace-ID is (acting-workspace.ts): one the
 * credential's user belongs to (an OAuth token: its client's only). Any other is 404, as
 * if it did not exist, so that the answer reveals no other tenant's workspace.
 */
async function reachableWorkspace(deps: Deps, principal: Principal, workspaceId: string): Promise<string> {
  try {
    return await resolveWorkspace(deps, principal, workspaceId);
  } catch (error) {
    if (error instanceof AccessDenied) throw new NotFound('workspace', workspaceId);
    throw error;
  }
}

const newestFirst = <Q extends { sort?: string[] | undefined }>(query: Q): Q => ({ ...query, sort: query.sort ?? ['-created_at'] });

export const seoHandlers = handlersFor<(typeof seoRoutes)[number]>()({
  createSeoReport: async (request, deps) => ({
    status: 201,
    body: { message: 'SEO report stored.', data: await createSeoReport(deps, ownerOf(request), request.body) },
  }),
  listSeoIssues: async ({ principal, params, query, route, url }, deps) => {
    // The path names the workspace; X-Workspace-ID and workspace_id were checked, and do not change it.
    const workspaceId = await reachableWorkspace(deps, principal, params.workspace_id);
    // The query's field filters are typed loosely (list-query.ts); `url=` matches as reports store URLs.
    const urlFilter = (query as { url?: string }).url;
    const filtered = urlFilter === undefined ? query : { ...query, url: asStoredUrl(urlFilter) };
    return {
      status: 200,
      body: await listPage(seoIssuesOf(deps, ownerOf({ principal, workspaceId })), newestFirst(filtered), route.list, url),
    };
  },
  listSeoReports: async ({ query: { url: reportedUrl, ...query }, route, url, ...request }, deps) => ({
    status: 200,
    body: await listPage(seoReportsOfUrl(deps, ownerOf(request), reportedUrl), newestFirst(query), route.list, url),
  }),
});
