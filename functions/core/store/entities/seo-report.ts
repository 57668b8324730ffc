import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * One audit's scores for one URL; its issues are items of their own (seo-issue.ts). `urlKey` is
 * the SHA-256 of the normalised URL (seo/seo-urls.ts), so that a URL's score history is one key
 * range whatever the URL's length.
 *
 * | access pattern                        | index | pk         | sk                              |
 * |---------------------------------------|-------|------------|---------------------------------|
 * | report by URL and id                  | table | WKS#<wid>  | SEOREP#<env>#<urlKey>#<id>      |
 * | reports of one URL (score history)    | table | WKS#<wid>  | SEOREP#<env>#<urlKey>#          |
 * | reports of a workspace and env        | table | WKS#<wid>  | SEOREP#<env>#                   |
 */
export const seoReportSchema = createSchema({
  model: { entity: 'seoReport', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    /** The URL as stored: parsed and written back (lower-case host, no fragment). */
    url: { type: 'string', required: true },
    /** The SHA-256 of `url`, base64url: the key of the URL's reports. */
    urlKey: { type: 'string', required: true },
    /** Each 0 to 100. */
    scores: {
      type: 'map',
      required: true,
      properties: {
        performance: { type: 'number', required: true },
        accessibility: { type: 'number', required: true },
        best_practices: { type: 'number', required: true },
        seo: { type: 'number', required: true },
      },
    },
    issueCount: { type: 'number', required: true },
    /** The report's issues counted by severity (`critical`, `high`, ...), each severity present. */
    issuesBySeverity: { type: 'any', required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
  },
  indexes: {
    byWorkspace: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: {
        field: 'sk',
        composite: ['environment', 'urlKey', 'id'],
        template: 'SEOREP#${environment}#${urlKey}#${id}',
        casing: 'none',
      },
    },
  },
});
