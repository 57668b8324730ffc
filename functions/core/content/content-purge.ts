import { environments } from '#core/platform/environments';
import type { Deps } from '#core/ports/deps';
import type { PostItem } from '#core/store/items';
import { collections, forgetCount } from '#core/store/list-counts';

/** Items deleted per BatchWriteItem call. */
const batchSize = 25;

async function deleteAll<K>(remove: (keys: K[]) => { go(): Promise<unknown> }, keys: K[]): Promise<void> {
  for (let i = 0; i < keys.length; i += batchSize) await remove(keys.slice(i, i + batchSize)).go();
}

/** A post's items, without conditions: one made in a workspace that a delete was emptying (posts.ts). */
export async function forgetPost(deps: Deps, post: PostItem): Promise<void> {
  const { entities } = deps.db;
  const owner = { workspaceId: post.workspaceId, environment: post.environment };
  await entities.post.delete({ ...owner, id: post.id }).go();
  await entities.contentSlug.delete({ ...owner, kind: 'post', slug: post.slug }).go();
  await deleteAll(
    (keys) => entities.postWord.delete(keys),
    post.words.map((word) => ({ ...owner, word, postId: post.id })),
  );
  await deleteAll(
    (keys) => entities.postCategory.delete(keys),
    post.categoryIds.map((categoryId) => ({ ...owner, categoryId, postId: post.id })),
  );
}

/**
 * Removes all of a deleted workspace's content, in both environments: posts, categories,
 * slugs, links and the search index (all in the workspace's partition), and their counts.
 * Its cost grows with the content: one Query page and four BatchWriteItem calls per 100 items.
 */
export async function forgetContentOf(deps: Deps, workspaceId: string): Promise<void> {
  const { entities } = deps.db;
  for (const environment of environments) {
    const owner = { workspaceId, environment };
    const all = { pages: 'all', consistent: true } as const;
    const [posts, categories, links, words, slugs] = await Promise.all([
      entities.post.query.byWorkspace(owner).go({ ...all, attributes: ['workspaceId', 'environment', 'id'] }),
      entities.category.query.byWorkspace(owner).go({ ...all, attributes: ['workspaceId', 'environment', 'id'] }),
      entities.postCategory.query.byCategory(owner).go(all),
      entities.postWord.query.byWord(owner).go(all),
      Promise.all((['post', 'category'] as const).map((kind) => entities.contentSlug.query.byWorkspace({ ...owner, kind }).go(all))),
    ]);
    await deleteAll((keys) => entities.post.delete(keys), posts.data);
    await deleteAll((keys) => entities.category.delete(keys), categories.data);
    await deleteAll((keys) => entities.postCategory.delete(keys), links.data);
    await deleteAll((keys) => entities.postWord.delete(keys), words.data);
    await deleteAll(
      (keys) => entities.contentSlug.delete(keys),
      slugs.flatMap((page) => page.data),
    );
    await forgetCount(deps.db, collections.postsOfWorkspace(workspaceId, environment));
    await forgetCount(deps.db, collections.categoriesOfWorkspace(workspaceId, environment));
  }
}
