import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * Claims a post's or a category's slug in its workspace and environment, so that "unique
 * per workspace and environment" is a conditional write rather than a read-then-write race.
 *
 * | access pattern                     | index | pk         | sk                          |
 * |------------------------------------|-------|------------|-----------------------------|
 * | slug of a kind, workspace and env  | table | WKS#<wid>  | SLUG#<kind>#<env>#<slug>    |
 */
export const contentSlugSchema = createSchema({
  model: { entity: 'contentSlug', version: '1', service: 'tenant-api' },
  attributes: {
    workspaceId: { type: 'string', required: true },
    kind: { type: ['post', 'category'] as const, required: true },
    environment: { type: environments, required: true },
    slug: { type: 'string', required: true },
    /** The post or category that holds it. */
    holderId: { type: 'string', required: true },
  },
  indexes: {
    byWorkspace: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: { field: 'sk', composite: ['kind', 'environment', 'slug'], template: 'SLUG#${kind}#${environment}#${slug}', casing: 'none' },
    },
  },
});
