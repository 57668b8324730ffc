import { assertStrictJson, maxJsonDepth } from '#core/http/strict-json';
import { InvalidFormat } from '#core/platform/errors';

/** The `errors` of the refusal of `text`, or undefined when it is accepted. */
function refusalOf(text: string): Record<string, string[]> | undefined {
  JSON.parse(text); // the scan reads only what JSON.parse accepts
  try {
    assertStrictJson(text);
    return undefined;
  } catch (error) {
    if (error instanceof InvalidFormat) return error.extras.errors as Record<string, string[]>;
    throw error;
  }
}

describe('strict JSON: keys once per object, text that is Unicode', () => {
  it('accepts JSON whose keys appear once per object and whose text is Unicode', () => {
    for (const text of [
      '{}',
      '[]',
      '"text"',
      '42',
      'null',
      '{"a":1,"b":[1,"two",{"a":3}],"c":{"a":{"a":null}}}',
      '[{"x":1},{"x":2}]',
      '{"a":{"x":1},"b":{"x":1}}',
      '{"":1,"quote\\"d":2,"back\\\\slash":3,"comma,":[",",{"}":"]"}]}',
      '{"emoji":"\\ud83d\\ude00","raw":"😀","bom":"\\ufeff","replacement":"\\ufffd"}',
      ' { "spaced" : [ 1 , 2 ] , "more" : true } ',
    ]) {
      expect(refusalOf(text)).toBeUndefined();
    }
  });

  it('refuses a key given twice in one object, at any depth, naming its path', () => {
    expect(refusalOf('{"a":1,"a":2}')).toEqual({ a: ['is given more than once in its object'] });
    expect(refusalOf('{"a":{"b":[0,{"c":1,"d":{},"c":2}]}}')).toEqual({ 'a.b.1.c': ['is given more than once in its object'] });
    expect(Object.keys(refusalOf('[[],[{"k":[1,2,3],"k":{}}]]')!)).toEqual(['1.0.k']);
    expect(Object.keys(refusalOf('{"x":[{"y":1}],"x":2}')!)).toEqual(['x']);
  });

  it('compares keys as decoded, so an escape does not hide a repeat', () => {
    expect(Object.keys(refusalOf('{"name":1,"n\\u0061me":2}')!)).toEqual(['name']);
    expect(Object.keys(refusalOf('{"\\u00e9":1,"é":2}')!)).toEqual(['é']);
    expect(Object.keys(refusalOf('{"__proto__":1,"__proto__":2}')!)).toEqual(['__proto__']);
  });

  it('refuses a lone surrogate in a value or a key, high or low, naming where with the key escaped', () => {
    const problem = ['is not valid Unicode text (a lone UTF-16 surrogate)'];
    expect(refusalOf('"\\ud800"')).toEqual({ body: problem });
    expect(refusalOf('{"a":"x\\uDC00"}')).toEqual({ a: problem });
    expect(refusalOf('{"a":["ok","\\ude00\\ud83d"]}')).toEqual({ 'a.1': problem }); // a pair in the wrong order is two lone halves
    expect(refusalOf('{"m":{"\\ud800k":1}}')).toEqual({ 'm.\\ud800k': problem });
    // A body handed over as a string (not base64) may hold one raw, unescaped.
    expect(refusalOf('{"raw":["\ud800"]}')).toEqual({ 'raw.0': problem });
  });

  it(`accepts nesting ${maxJsonDepth} levels deep and refuses one level more, naming where, however deep it goes`, () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(refusalOf(nested(maxJsonDepth))).toBeUndefined();
    expect(refusalOf(nested(maxJsonDepth + 1))).toEqual({
      [Array(maxJsonDepth).fill('0').join('.')]: [`nests objects and arrays deeper than ${maxJsonDepth} levels`],
    });
    expect(Object.keys(refusalOf(nested(100_000))!)).toHaveLength(1);
    const deepObject = `${'{"a":'.repeat(maxJsonDepth + 1)}1${'}'.repeat(maxJsonDepth + 1)}`;
    expect(Object.keys(refusalOf(deepObject)!)[0]).toMatch(new RegExp(`^(a\\.){${maxJsonDepth - 1}}a$`));
    expect(Object.keys(refusalOf(`${'{"a":'.repeat(60)}{"b":1,"b":2}${'}'.repeat(60)}`)!)[0]).toMatch(/^(a\.){60}b$/);
  });

  it('names the key and the path in its message, escaped and bounded', () => {
    try {
      assertStrictJson(`{"${'k'.repeat(500)}\\n":1,"${'k'.repeat(500)}\\n":2}`);
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidFormat);
      expect((error as InvalidFormat).message).toMatch(/^The body gives the key "k{100}…" more than once in one object \(at k{100}…\)\.$/);
      expect((error as InvalidFormat).status).toBe(400);
    }
  });
});
