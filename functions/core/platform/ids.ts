import { encodeTime, ulid } from 'ulid';

export const idPrefixes = {
  workspace: 'wks',
  namespace: 'ns',
  apiKey: 'key',
  webhook: 'wh',
  delivery: 'del',
  event: 'evt',
  post: 'post',
  category: 'cat',
  seoIssue: 'seo',
  /** Reports share the `seo_` prefix of their issues (docs/decisions.md: SEO reports `seo_`). */
  seoReport: 'seo',
  oauthClient: 'client',
  package: 'pkg',
} as const;

export type IdKind = keyof typeof idPrefixes;

/**
 * A new id of the given kind. Its ULID carries `at` (the record's `createdAt`) to the
 * millisecond, so that id order is creation order and a creation-time window is a key range.
 */
export const newId = (kind: IdKind, at: Date = new Date()): string => `${idPrefixes[kind]}_${ulid(at.getTime())}`;

/** Crockford's base32, the alphabet of a ULID: digits and letters but I, L, O and U. */
const ulidLetters = 'A-HJKMNP-TV-Z';
const ulidAlphabet = `0-9${ulidLetters}`;

/** Matches an id of the given kind as stored: its prefix and a 26-character ULID in upper case. */
export const idPattern = (kind: IdKind): RegExp => new RegExp(`^${idPrefixes[kind]}_[${ulidAlphabet}]{26}$`);

/**
 * Matches an id as a client may send it: ULIDs are case-insensitive, so `wks_01j…` names
 * the same workspace as `wks_01J…`. Spelled out (no `i` flag) so that openapi.yaml says the same.
 */
export const idInputPattern = (kind: IdKind): RegExp =>
  new RegExp(`^${idPrefixes[kind]}_[${ulidAlphabet}${ulidLetters.toLowerCase()}]{26}$`);

/** The stored spelling of an id that matched idInputPattern. */
export const normaliseId = (id: string): string => {
  const split = id.indexOf('_') + 1;
  return id.slice(0, split) + id.slice(split).toUpperCase();
};

/** The last character of Crockford base32: the largest random part a ULID can have. */
const maxUlidRandom = 'Z'.repeat(16);

/**
 * The ids of a kind created inside a window (both ends exclusive, as `created_after` and
 * `created_before`), as inclusive bounds on the id: a ULID's first ten characters are its
 * millisecond, so the window is a key range. Empty when `to` sorts before `from`.
 */
export function idsCreatedWithin(kind: IdKind, after: number | undefined, before: number | undefined): { from: string; to: string } {
  const prefix = `${idPrefixes[kind]}_`;
  const from = after === undefined ? prefix : prefix + encodeTime(Math.max(0, after + 1));
  // '~' sorts after every base32 character: no bound above.
  if (before === undefined) return { from, to: `${prefix}~` };
  return { from, to: before <= 0 ? '' : prefix + encodeTime(before - 1) + maxUlidRandom };
}
