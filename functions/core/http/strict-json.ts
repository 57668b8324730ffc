import { InvalidFormat } from '#core/platform/errors';
import { loneSurrogate, shown } from './unicode-text.ts';

/** An object or array being read: its keys so far (objects), and where in it the scan is. */
interface Frame {
  keys: Set<string> | undefined;
  at: string | number;
  expectsKey: boolean;
}

const pathOf = (frames: readonly Frame[]) =>
  frames.map((frame) => (typeof frame.at === 'number' ? String(frame.at) : shown(frame.at))).join('.') || 'body';

function refuse(frames: readonly Frame[], problem: string, message: (path: string) => string): never {
  const path = pathOf(frames);
  throw new InvalidFormat(message(path), { [path]: [problem] });
}

/** Where the string that opens at `start` closes: the next quote not escaped by an odd run of backslashes. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/**
 * How deep a body's objects and arrays may nest: far beyond any body of this API, and short of
 * what turning a body back into text (an idempotency fingerprint, a forwarded MCP call) can do
 * without running out of stack, which a few thousand levels did.
 */
export const maxJsonDepth = 64;

/**
 * Refuses what JSON.parse lets through: a key twice in one object (which value counts would be
 * a guess, and parsers disagree), a lone UTF-16 surrogate, which is no Unicode text, and nesting
 * deeper than `maxJsonDepth`. `text` has passed JSON.parse, so only strings, brackets and commas
 * need reading, with a stack of its own.
 */
export function assertStrictJson(text: string): void {
  const frames: Frame[] = [];
  // Only a body handed over as a string can hold a raw lone surrogate; else only escapes make one.
  const rawSurrogates = loneSurrogate.test(text);
  let nextBackslash = text.indexOf('\\');
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const frame = frames.at(-1);
    if ((c === 0x7b || c === 0x5b) && frames.length === maxJsonDepth) {
      refuse(
        frames,
        `nests objects and arrays deeper than ${maxJsonDepth} levels`,
        (path) => `The body nests objects and arrays deeper than ${maxJsonDepth} levels (at ${path}).`,
      );
    }
    if (c === 0x7b)
      frames.push({ keys: new Set(), at: '', expectsKey: true }); // {
    else if (c === 0x5b)
      frames.push({ keys: undefined, at: 0, expectsKey: false }); // [
    else if (c === 0x7d || c === 0x5d)
      frames.pop(); // } ]
    else if (c === 0x2c) {
      // , (always inside an object or an array)
      if (frame!.keys) frame!.expectsKey = true;
      else frame!.at = (frame!.at as number) + 1;
    } else if (c === 0x22) {
      // "
      const end = stringEnd(text, i);
      if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = text.indexOf('\\', i);
      const escaped = nextBackslash !== -1 && nextBackslash < end;
      const keys = frame?.expectsKey ? frame.keys : undefined;
      const start = i;
      i = end;
      if (!keys && !escaped && !rawSurrogates) continue;
      const value = escaped ? (JSON.parse(text.slice(start, end + 1)) as string) : text.slice(start + 1, end);
      if (keys) {
        frame!.at = value;
        frame!.expectsKey = false;
        if (keys.has(value)) {
          refuse(
            frames,
            'is given more than once in its object',
            (path) => `The body gives the key "${shown(value)}" more than once in one object (at ${path}).`,
          );
        }
        keys.add(value);
      }
      if (loneSurrogate.test(value)) {
        refuse(
          frames,
          'is not valid Unicode text (a lone UTF-16 surrogate)',
          (path) => `The body has text that is not valid Unicode (a lone UTF-16 surrogate) at ${path}.`,
        );
      }
    }
  }
}
