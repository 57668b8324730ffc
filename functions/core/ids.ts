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
  oauthClient: 'client',
} as const;

export type IdKind = keyof typeof idPrefixes;

/**
 * A new id of the given kind. Its ULID carries `at` (the record's `createdAt`) to the
 * millisecond, so that id order is creation order and a creation-time window is a key range.
 */
export const newId = (kind: IdKind, at: Date = new Date()): string => `${idPrefixes[kind]}_${ulid(at.getTime())}`;

/** Matches an id of the given kind: its prefix and a 26-character ULID in Crockford base32. */
export const idPattern = (kind: IdKind): RegExp =>
  new RegExp(`^${idPrefixes[kind]}_[0-9A-HJKMNP-TV-Z]{26}$`);

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
