import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * That a post is in a category: written and removed in the same transaction as the post's
 * `categoryIds` and the category's `postCount`, so that a category's delete finds its posts
 * with one Query.
 *
 * | access pattern            | index | pk         | sk                                |
 * |---------------------------|-------|------------|-----------------------------------|
 * | posts of a category       | table | WKS#<wid>  | POSTCAT#<env>#<categoryId>#        |
 */
export const postCategorySchema = createSchema({
  model: { entity: 'postCategory', version: '1', service: 'tenant-api' },
  attributes: {
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    categoryId: { type: 'string', required: true },
    postId: { type: 'string', required: true },
  },
  indexes: {
    byCategory: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: {
        field: 'sk',
        composite: ['environment', 'categoryId', 'postId'],
        template: 'POSTCAT#${environment}#${categoryId}#${postId}',
        casing: 'none',
      },
    },
  },
});
