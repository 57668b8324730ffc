/**
 * Letters that Unicode's decomposition (NFKD) leaves whole, spelled as a reader who types
 * without them would (`straße` as `strasse`, `Ørsted` as `Orsted`): what slugs and the
 * search index fold after decomposing and dropping marks.
 */
const folds: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
};

const foldable = new RegExp(`[${Object.keys(folds).join('')}]`, 'g');

/** The text decomposed, its marks dropped and the letters above folded: `Crème Straße` → `Creme Strasse`. */
export const foldedText = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(foldable, (letter) => folds[letter]!);
