import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';
import { postStatuses } from './post-status.ts';

/**
 * A post in one environment, in its workspace's partition beside the categories, slugs, links
 * and search index, so that all of a workspace's content is one partition to remove with it.
 *
 * | access pattern                    | index | pk         | sk                  |
 * |-----------------------------------|-------|------------|---------------------|
 * | post by id                        | table | WKS#<wid>  | POST#<env>#<id>     |
 * | posts of a workspace and env      | table | WKS#<wid>  | POST#<env>#         |
 */
export const postSchema = createSchema({
  model: { entity: 'post', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    title: { type: 'string', required: true },
    slug: { type: 'string', required: true },
    excerpt: { type: 'string' },
    content: { type: 'string' },
    status: { type: postStatuses, required: true },
    /** Set by the first publish, and kept by every later change. */
    publishedAt: { type: 'string' },
    /** Categories of the same workspace and environment, each with its link item (post-category.ts). */
    categoryIds: { type: 'list', items: { type: 'string' }, required: true },
    /** The words the search index holds for the post (post-word.ts): what an update's index change is computed from. */
    words: { type: 'list', items: { type: 'string' }, required: true },
    /** +1 with every write: the condition of a write that read the post first. */
    revision: { type: 'number', required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byWorkspace: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: { field: 'sk', composite: ['environment', 'id'], template: 'POST#${environment}#${id}', casing: 'none' },
    },
  },
});
