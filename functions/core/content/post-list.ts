import type { IndexedMatches, ListSource } from '#core/lists/list-source';
import { ValidationFailed } from '#core/platform/errors';
import { idsCreatedWithin } from '#core/platform/ids';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { PostItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { collections, counted } from '#core/store/list-counts';
import { categoriesById } from './categories-in-use.ts';
import { categoryView } from './category-view.ts';
import { type ContentOwner, type ContentReader, contentKey } from './content-owner.ts';
import { type PostView, postView } from './post-view.ts';
import { maxSearchTerms, minWordLength, searchTermsOf } from './words.ts';

export type PostWithCategories = PostView & { categories?: ReturnType<typeof categoryView>[] };

/** Posts as the API shows them to the reader, with their categories in full when `include=categories` asks. */
export async function postViews(
  deps: Deps,
  reader: ContentReader,
  posts: readonly PostItem[],
  withCategories: boolean,
): Promise<PostWithCategories[]> {
  const views = posts.map((post) => postView(post, reader.readsContent));
  if (!withCategories) return views;
  const found = await categoriesById(deps, reader, [...new Set(posts.flatMap((post) => post.categoryIds))]);
  return views.map((view) => ({
    ...view,
    categories: view.category_ids.flatMap((id) => {
      const category = found.get(id);
      return category ? [categoryView(category)] : [];
    }),
  }));
}

/** What narrows a list of posts through an index: words to search, a category. */
export interface PostFilters {
  search?: string;
  categoryId?: string;
}

/**
 * Every post a search matches, by id (creation order): each term of the search is one
 * Query of the index's key range that begins with it (entities/post-word.ts), and a post
 * matches when every term begins one of its words. The cost is the matches', whatever
 * the number of posts.
 */
async function postsWithWords(deps: Deps, owner: ContentOwner, search: string): Promise<Set<string>[]> {
  const terms = searchTermsOf(search);
  if (!terms.length) throw new ValidationFailed({ search: [`must hold a word of at least ${minWordLength} letters or digits`] });
  if (terms.length > maxSearchTerms) throw new ValidationFailed({ search: [`must hold at most ${maxSearchTerms} words`] });
  const { postWord } = deps.db.entities;
  return Promise.all(
    terms.map(async (word) => {
      const { data } = await postWord.query
        .byWord({ workspaceId: owner.workspaceId, environment: owner.environment })
        // The key range from the term up to the highest code point after it: what begins_with means, but
        // DynamoDB Local answers begins_with by passing over the whole partition, and BETWEEN by the range.
        .between({ word }, { word: `${word}\u{10FFFF}` })
        .go({ ...hotPath, pages: 'all', attributes: ['postId'] });
      return new Set(data.map((row) => row.postId));
    }),
  );
}

/** Every post of a category, by id: one Query of its links (entities/post-category.ts). */
async function postsInCategory(deps: Deps, owner: ContentOwner, categoryId: string): Promise<Set<string>> {
  const { data } = await deps.db.entities.postCategory.query
    .byCategory({ workspaceId: owner.workspaceId, environment: owner.environment, categoryId })
    .go({ ...hotPath, pages: 'all', attributes: ['postId'] });
  return new Set(data.map((row) => row.postId));
}

/** The posts the filters keep, through their indexes; undefined when none is given. */
function matchingPosts(deps: Deps, owner: ContentOwner, filters: PostFilters): IndexedMatches<PostItem> | undefined {
  const { search, categoryId } = filters;
  if (search === undefined && categoryId === undefined) return undefined;
  return {
    async ids() {
      const sets = [
        ...(search === undefined ? [] : await postsWithWords(deps, owner, search)),
        ...(categoryId === undefined ? [] : [await postsInCategory(deps, owner, categoryId)]),
      ];
      const [first, ...rest] = sets.sort((a, b) => a.size - b.size);
      return [...first!].filter((id) => rest.every((set) => set.has(id))).sort();
    },
    async rows(ids) {
      if (!ids.length) return [];
      const { data } = await deps.db.entities.post.get(ids.map((id) => contentKey(owner, id))).go({ ...hotPath, consistent: true });
      const byId = new Map(data.map((item) => [item.id, item]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
  };
}

/** The reader's posts in creation order: one Query of their partition's environment, or the indexes that filters name. */
export function postsOf(
  deps: Deps,
  reader: ContentReader,
  { withCategories, ...filters }: PostFilters & { withCategories: boolean },
): ListSource<PostItem, PostWithCategories> {
  const { post } = deps.db.entities;
  return {
    ...counted(deps.db, collections.postsOfWorkspace(reader.workspaceId, reader.environment)),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('post', after, before),
    read: keyOrderReader(post, 'byWorkspace', (range) => {
      const query = post.query.byWorkspace({ workspaceId: reader.workspaceId, environment: reader.environment });
      return range ? query.between({ id: range.from }, { id: range.to }) : query;
    }),
    matching: matchingPosts(deps, reader, filters),
    view: (rows) => postViews(deps, reader, rows, withCategories),
  };
}
