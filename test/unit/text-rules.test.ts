import * as z from 'zod/mini';
import { resourceName } from '#core/platform/common-schemas';
import { multiLine, singleLine } from '#core/platform/text-rules';

const problemsOf = (schema: z.ZodMiniType, value: string) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

const oneLine = z.string().check(singleLine());
const freeText = z.string().check(multiLine());

describe('text rules for fields a client fills in', () => {
  it('single-line text refuses C0 and C1 controls, DEL, line and paragraph separators and bidirectional overrides, naming the character', () => {
    const refused = {
      '\u0000': 'U+0000',
      '\t': 'U+0009',
      '\n': 'U+000A',
      '\r': 'U+000D',
      '\u001b': 'U+001B',
      '\u007f': 'U+007F',
      '\u0085': 'U+0085',
      '\u009f': 'U+009F',
      '\u2028': 'U+2028',
      '\u2029': 'U+2029',
      '\u202a': 'U+202A',
      '\u202e': 'U+202E',
      '\u2066': 'U+2066',
      '\u2069': 'U+2069',
    };
    for (const [character, named] of Object.entries(refused)) {
      expect(problemsOf(oneLine, `a${character}b`)).toEqual([
        `must be a single line of text without control or bidirectional formatting characters; ${named} is not allowed`,
      ]);
    }
  });

  it('single-line text keeps every script, emoji with joiners, direction marks and the replacement character', () => {
    for (const text of ['Zoë', '東京', 'مساحة\u200F', 'שלום\u200E', '👩‍💻', '\u00a0non-breaking', 'a\ufffdb', '']) {
      expect(problemsOf(oneLine, text)).toEqual([]);
    }
  });

  it('multi-line text takes tabs and line breaks, but no other control or bidirectional override', () => {
    expect(problemsOf(freeText, 'first line\r\n\tsecond\u2028third')).toEqual([]);
    for (const character of ['\u0000', '\u000b', '\u000c', '\u007f', '\u0085', '\u202e', '\u2067']) {
      expect(problemsOf(freeText, `a${character}`)).toHaveLength(1);
    }
  });

  it('a resource name is checked before it is trimmed, and says only that', () => {
    expect(problemsOf(resourceName, 'Name\n')).toEqual([
      'must be a single line of text without control or bidirectional formatting characters; U+000A is not allowed',
    ]);
    expect(problemsOf(resourceName, '\n')).toHaveLength(1);
    expect(resourceName.parse('  Padded  ')).toBe('Padded');
    expect(problemsOf(resourceName, '   ')).toEqual(['must not be blank']);
  });
});
