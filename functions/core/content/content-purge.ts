import { environments } from '#core/platform/environments';
import type { Deps } from '#core/ports/deps';
import type { PostItem } from '#core/store/items';
import { collections, forgetCount } from '#core/store/list-counts';
import { eachPage, purgePageSize } from '#core/store/query-pages';

/** A post's items, without conditions: one made in a workspace that a delete was emptying (posts.ts). */
export async function forgetPost(deps: Deps, post: PostItem): Promise<void> {
  const { entities } = deps.db;
  const owner = { workspaceId: post.workspaceId, environment: post.environment };
  await entities.post.delete({ ...owner, id: post.id }).go();
  await entities.contentSlug.delete({ ...owner, kind: 'post', slug: post.slug }).go();
  // ElectroDB splits a batch into BatchWriteItem calls of 25.
  if (post.words.length) await entities.postWord.delete(post.words.map((word) => ({ ...owner, word, postId: post.id }))).go();
  if (post.categoryIds.length) {
    await entities.postCategory.delete(post.categoryIds.map((categoryId) => ({ ...owner, categoryId, postId: post.id }))).go();
  }
}

/**
 * Removes all of a deleted workspace's content, in both environments: posts, categories,
 * slugs, links and the search index (all in the workspace's partition), and their counts.
 * Page by page, so that a workspace with much content is never held in memory at once: one
 * Query page and its BatchWriteItem calls per 500 items.
 */
export async function forgetContentOf(deps: Deps, workspaceId: string): Promise<void> {
  const { entities } = deps.db;
  for (const environment of environments) {
    const owner = { workspaceId, environment };
    const page = (cursor: string | null) => ({ cursor, limit: purgePageSize, consistent: true }) as const;
    const idOnly = ['workspaceId', 'environment', 'id'] as const;
    await eachPage(
      (cursor) => entities.post.query.byWorkspace(owner).go({ ...page(cursor), attributes: [...idOnly] }),
      (posts) => entities.post.delete(posts).go(),
    );
    await eachPage(
      (cursor) => entities.category.query.byWorkspace(owner).go({ ...page(cursor), attributes: [...idOnly] }),
      (categories) => entities.category.delete(categories).go(),
    );
    await eachPage(
      (cursor) => entities.postCategory.query.byCategory(owner).go(page(cursor)),
      (links) => entities.postCategory.delete(links).go(),
    );
    await eachPage(
      (cursor) => entities.postWord.query.byWord(owner).go(page(cursor)),
      (words) => entities.postWord.delete(words).go(),
    );
    for (const kind of ['post', 'category'] as const) {
      await eachPage(
        (cursor) => entities.contentSlug.query.byWorkspace({ ...owner, kind }).go(page(cursor)),
        (slugs) => entities.contentSlug.delete(slugs).go(),
      );
    }
    await forgetCount(deps.db, collections.postsOfWorkspace(workspaceId, environment));
    await forgetCount(deps.db, collections.categoriesOfWorkspace(workspaceId, environment));
  }
}
