import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';
import { seoSeverities } from './seo-severity.ts';

/**
 * One issue of an SEO report (seo-report.ts), written in the report's transaction.
 *
 * | access pattern                     | index | pk         | sk                      |
 * |------------------------------------|-------|------------|-------------------------|
 * | issue by id                        | table | WKS#<wid>  | SEOISSUE#<env>#<id>     |
 * | issues of a workspace and env      | table | WKS#<wid>  | SEOISSUE#<env>#         |
 */
export const seoIssueSchema = createSchema({
  model: { entity: 'seoIssue', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    reportId: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    /** The report's URL, as stored. */
    url: { type: 'string', required: true },
    issueType: { type: 'string', required: true },
    severity: { type: seoSeverities, required: true },
    /** Where on the page (a CSS selector or an HTML snippet), when the report said. */
    element: { type: 'string' },
    /** What the audit said of it, when the report said. */
    message: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
  },
  indexes: {
    byWorkspace: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: { field: 'sk', composite: ['environment', 'id'], template: 'SEOISSUE#${environment}#${id}', casing: 'none' },
    },
  },
});
