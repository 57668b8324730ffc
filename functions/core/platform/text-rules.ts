import * as z from 'zod/mini';

// What text a field may hold, as zod checks for every schema that takes text from a client:
// the request schemas (each context's *-schemas.ts) and the domain's own (OAuth clients).

/** U+000A, as a message names a character. */
const codePointOf = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * A check that refuses the first character `forbidden` finds, naming it, and stops the checks
 * after it, so that a later z.trim() cannot hide a trailing line break.
 */
const refusing = (forbidden: RegExp, rule: string) => () =>
  z.superRefine((value: string, ctx) => {
    const found = forbidden.exec(value)?.[0];
    if (found !== undefined) ctx.addIssue({ code: 'custom', message: `${rule}; ${codePointOf(found)} is not allowed`, continue: false });
  });

/**
 * Text shown on one line (names, labels): no C0 control (NUL, TAB, CR, LF ...), DEL or C1
 * control, no line or paragraph separator (U+2028, U+2029), and no bidirectional embedding,
 * override or isolate (U+202A-U+202E, U+2066-U+2069), which make text read otherwise than it
 * is stored. Marks (U+200E) and joiners (U+200D) stay allowed: scripts and emoji need them.
 */
export const singleLine = refusing(
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what the rule refuses
  /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/,
  'must be a single line of text without control or bidirectional formatting characters',
);

/** Free text that may run over lines: as singleLine, but TAB, LF, CR and the line and paragraph separators are allowed. */
export const multiLine = refusing(
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what the rule refuses
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/,
  'must be text without control characters other than line breaks and tabs, nor bidirectional formatting characters',
);
