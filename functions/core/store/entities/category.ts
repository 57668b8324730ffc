import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * A category of posts: `postCount` moves with each link in the same transaction, and
 * `deletingAt` marks a delete under way, so that no post links to the category while its links
 * are removed.
 *
 * | access pattern                      | index | pk         | sk                 |
 * |-------------------------------------|-------|------------|--------------------|
 * | category by id                      | table | WKS#<wid>  | CAT#<env>#<id>     |
 * | categories of a workspace and env   | table | WKS#<wid>  | CAT#<env>#         |
 */
export const categorySchema = createSchema({
  model: { entity: 'category', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    name: { type: 'string', required: true },
    slug: { type: 'string', required: true },
    description: { type: 'string' },
    postCount: { type: 'number', required: true, default: 0 },
    deletingAt: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byWorkspace: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: { field: 'sk', composite: ['environment', 'id'], template: 'CAT#${environment}#${id}', casing: 'none' },
    },
  },
});
