import { changeOf } from '#core/content/content-writes';
import { indexedWordsOf, searchTermsOf } from '#core/content/words';

describe('the words search finds a post by', () => {
  it('are the distinct words of the title then the excerpt, without case or accents', () => {
    expect(indexedWordsOf({ title: 'Crème Brûlée: the BRULEE way', excerpt: "l'école, naïve — 42 a" })).toEqual([
      'creme',
      'brulee',
      'the',
      'way',
      'ecole',
      'naive',
      '42',
    ]);
    // Letters that decomposition leaves whole are folded as they are typed without them.
    expect(indexedWordsOf({ title: 'Straße über Ølstue, Æsir', excerpt: null })).toEqual(['strasse', 'uber', 'olstue', 'aesir']);
  });

  it('are at most 40, title first, each cut at 32 characters', () => {
    const title = Array.from({ length: 30 }, (_, n) => `title${n}`).join(' ');
    const excerpt = Array.from({ length: 30 }, (_, n) => `excerpt${n}`).join(' ');
    const words = indexedWordsOf({ title, excerpt });
    expect(words).toHaveLength(40);
    expect(words.slice(0, 30).every((word) => word.startsWith('title'))).toBe(true);
    expect(words.at(-1)).toBe('excerpt9');
    expect(indexedWordsOf({ title: 'x'.repeat(50) })).toEqual(['x'.repeat(32)]);
  });

  it('are matched by terms read the same way', () => {
    expect(searchTermsOf('  BRÛL, crème  brûl ')).toEqual(['brul', 'creme']);
    expect(searchTermsOf('a - !')).toEqual([]);
    expect(searchTermsOf('STRASSE straße')).toEqual(['strasse']);
  });

  it('move in the index by what a change adds and removes', () => {
    expect(changeOf(['a1', 'b2', 'c3'], ['b2', 'd4'])).toEqual({ added: ['d4'], removed: ['a1', 'c3'] });
  });
});
