import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * The posts' search index: one item per distinct word of a post's title and excerpt, written in
 * the post's transaction, so that a prefix search is one Query costing its matches, whatever
 * the number of posts.
 *
 * | access pattern                   | index | pk         | sk                                |
 * |----------------------------------|-------|------------|-----------------------------------|
 * | posts with a word (or prefix)    | table | WKS#<wid>  | WORD#<env>#<word>#<postId>        |
 */
export const postWordSchema = createSchema({
  model: { entity: 'postWord', version: '1', service: 'tenant-api' },
  attributes: {
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    word: { type: 'string', required: true },
    postId: { type: 'string', required: true },
  },
  indexes: {
    byWord: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: { field: 'sk', composite: ['environment', 'word', 'postId'], template: 'WORD#${environment}#${word}#${postId}', casing: 'none' },
    },
  },
});
