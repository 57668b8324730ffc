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

/** Matches an id of the given kind: its prefix and a 26-character ULID in Crockford base32. */
export const idPattern = (kind: IdKind): RegExp =>
  new RegExp(`^${idPrefixes[kind]}_[0-9A-HJKMNP-TV-Z]{26}$`);
