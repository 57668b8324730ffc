import { foldedText } from '#core/platform/text-folding';

/**
 * The words search finds a post by (docs/content.md, search): the title's and then the
 * excerpt's, read case- and accent-insensitively. A word is a run of letters and digits
 * of at least `minWordLength`; longer than `maxWordLength`, it is indexed and matched by its start.
 */
export const minWordLength = 2;
const maxWordLength = 32;
/**
 * The distinct words indexed per post, title first: one index item each, written in the
 * post's own transaction (at most 100 items), so that the index never disagrees with the post.
 */
export const maxIndexedWords = 40;
/** The words of one search. */
export const maxSearchTerms = 8;

/** The words of a text in order, as the index spells them: decomposed, marks dropped, folded (platform/text-folding.ts), lower case. */
function wordsIn(text: string): string[] {
  return foldedText(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= minWordLength)
    .map((word) => [...word].slice(0, maxWordLength).join(''));
}

/** The distinct words a post is found by: its title's, then its excerpt's, at most maxIndexedWords. */
export function indexedWordsOf(post: { title: string; excerpt?: string | null }): string[] {
  return [...new Set([...wordsIn(post.title), ...wordsIn(post.excerpt ?? '')])].slice(0, maxIndexedWords);
}

/** The terms of a search, each matching the words it begins; none when it has no word of minWordLength. */
export const searchTermsOf = (search: string): string[] => [...new Set(wordsIn(search))];
