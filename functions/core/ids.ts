import { ulid } from 'ulid';

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
  oauthClient: 'client',
} as const;

export type IdKind = keyof typeof idPrefixes;

export const newId = (kind: IdKind): string => `${idPrefixes[kind]}_${ulid()}`;

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
