import type { OwnedDeps } from '#core/adapters/create-deps';
import { indexedWordsOf } from '#core/content/words';
import type { BootstrapResult } from '#core/operations/bootstrap';
import { newId } from '#core/platform/ids';
import { slugify } from '#core/platform/slugs';
import type { PostItem } from '#core/store/items';
import { collections } from '#core/store/list-counts';
import type { Counters } from './counters.ts';
import { alternatePageOne, type ListFigures, type ListSeed, pageOneOf, seedWorkspaces } from './lists.ts';
import { commonWord, postText, rareWord } from './post-texts.ts';

/** Posts given the rare word at every size: a search for it matches this many, whatever the collection holds. */
const rareMatches = 30;
/** One post in this many is given the common word: its matches grow with the collection. */
const commonEvery = 10;

/** A search measured at both sizes, with the `meta.total` each answer must give. */
export type SearchFigures = ListFigures & { word: string; totals: [number, number] };

export interface PostListFigures {
  pageOne: ListFigures;
  rare: SearchFigures;
  common: SearchFigures;
}

/** Whether post `i` of `size` has the rare word: exactly `rareMatches` of them, spread evenly over the collection. */
const hasRareWord = (i: number, size: number) => Math.floor(((i + 1) * rareMatches) / size) > Math.floor((i * rareMatches) / size);
const hasCommonWord = (i: number) => i % commonEvery === 0;

/** The searched words post `i` of `size` is given. */
const searchedWordsOf = (i: number, size: number) => [
  ...(hasRareWord(i, size) ? [rareWord] : []),
  ...(hasCommonWord(i) ? [commonWord] : []),
];

/** How many of `size` posts a search for `word` matches. */
const matchesOf = (word: string, size: number) =>
  Array.from({ length: size }, (_, i) => searchedWordsOf(i, size).includes(word)).filter(Boolean).length;

/**
 * Published live posts as createPost writes them: the post, its slug's claim and one index
 * item per distinct word (entities post-word.ts), with the list's count (seedWorkspaces).
 * The `posts` usage count is left alone: nothing creates posts in these workspaces.
 */
const postSeed = (deps: OwnedDeps): ListSeed => ({
  name: 'posts',
  collection: (workspaceId) => collections.postsOfWorkspace(workspaceId, 'live'),
  records(workspaceId, size) {
    const { post, contentSlug, postWord } = deps.db.entities;
    const record = (put: { params<T>(): T }) => put.params<{ Item: Record<string, unknown> }>().Item;
    const start = Date.now() - size * 1000;
    return Array.from({ length: size }, (_, i) => {
      const at = new Date(start + i * 1000).toISOString();
      const text = postText(i, searchedWordsOf(i, size));
      const item: PostItem = {
        id: newId('post', new Date(at)),
        workspaceId,
        environment: 'live',
        ...text,
        slug: `${slugify(text.title, 'post')}-${i}`,
        status: 'published',
        publishedAt: at,
        categoryIds: [],
        words: indexedWordsOf(text),
        revision: 1,
        createdAt: at,
        updatedAt: at,
      };
      const owner = { workspaceId, environment: 'live' } as const;
      return [
        record(post.put(item)),
        record(contentSlug.put({ ...owner, kind: 'post', slug: item.slug, holderId: item.id })),
        ...item.words.map((word) => record(postWord.put({ ...owner, word, postId: item.id }))),
      ];
    }).flat();
  },
});

/**
 * `GET /posts` page one at two sizes, plain and searched: a word as common at both sizes must
 * cost the same, one held by a tenth of the posts grows with them.
 */
export async function measurePostLists(
  deps: OwnedDeps,
  baseUrl: string,
  bootstrap: BootstrapResult,
  counters: Counters,
  options: { sizes: [number, number]; requests: number },
): Promise<PostListFigures> {
  const { sizes, requests } = options;
  const workspaceIds = await seedWorkspaces(deps, bootstrap, sizes, postSeed(deps));
  const page = (query: string, totals: [number, number], what: string) => {
    const [small, large] = ([0, 1] as const).map((n) =>
      pageOneOf(
        `${baseUrl}/posts?${query}per_page=25`,
        { Authorization: `Bearer ${bootstrap.apiKey}`, 'X-Workspace-ID': workspaceIds[n]! },
        totals[n],
        what,
      ),
    );
    return alternatePageOne(counters, requests, sizes, [small!, large!]);
  };
  const search = async (word: string): Promise<SearchFigures> => {
    const totals = sizes.map((size) => matchesOf(word, size)) as [number, number];
    return { ...(await page(`search=${word}&`, totals, `posts matching ${word}`)), word, totals };
  };
  return { pageOne: await page('', sizes, 'posts'), rare: await search(rareWord), common: await search(commonWord) };
}
