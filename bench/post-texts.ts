/**
 * Posts' text for the bench: titles and excerpts of everyday words, so that each post
 * has as many index items (one per distinct word) as a real one, and a body of about
 * 2 KB, as lists answer it. Made by a seeded generator: every run seeds the same posts.
 */

/** Words of titles, excerpts and bodies. None begins with a searched word (below), so those match exactly the posts given them. */
const vocabulary = (
  'api cache cloud cluster code customer data database deploy design developer edge error event feature guide ' +
  'health index install latency launch library limit log metric migrate mobile model monitor network node ' +
  'notes offline onboarding open partner pattern plan platform policy pricing privacy product queue release ' +
  'report request review roadmap scale schema search security service session setup storage stream support ' +
  'team test tenant token tool traffic update upgrade usage user version webhook workflow workspace write'
).split(' ');

/** A word no vocabulary word begins: search finds exactly the posts it is put in. */
export const rareWord = 'quokka';
/** Another, put in one post of ten. */
export const commonWord = 'lighthouse';

const bodyBytes = 2_000;

/** mulberry32: a small seeded generator, so that the same index always makes the same post. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface PostText {
  title: string;
  excerpt: string;
  content: string;
}

/** Post number `n`'s text, with `extraWords` in its title (at most maxIndexedWords distinct words reach the index, the title's first). */
export function postText(n: number, extraWords: readonly string[] = []): PostText {
  const random = generator(n + 1);
  const words = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => vocabulary[Math.floor(random() * vocabulary.length)]!);
  const sentence = (min: number, max: number) => {
    const text = words(min, max).join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const title = sentence(6, 10).slice(0, -1).split(' ');
  title.splice(1, 0, ...extraWords);
  let content = '';
  while (content.length < bodyBytes) content += `${sentence(8, 16)} `;
  return { title: title.join(' '), excerpt: sentence(10, 16), content: content.slice(0, bodyBytes).trimEnd() };
}
