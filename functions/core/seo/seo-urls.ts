import { createHash } from 'node:crypto';

/** The longest URL a report may be about, as stored. */
export const maxSeoUrlLength = 2048;

/** Why `text` is no URL a report may be about, or undefined when it is one. */
export function seoUrlProblem(text: string): string | undefined {
  if (!URL.canParse(text)) return 'must be an absolute http:// or https:// URL';
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http:// or https:// URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  // Normalising percent-encodes what is not ASCII: the URL as stored is what the limit holds.
  if (normaliseSeoUrl(text).length > maxSeoUrlLength) {
    return `must be at most ${maxSeoUrlLength} characters once normalised (characters beyond ASCII count as their percent-encoding)`;
  }
  return undefined;
}

/**
 * A URL as reports are stored and grouped by: parsed and written back (scheme and host in
 * lower case, default port and dot segments dropped), without its fragment, which names a
 * place on the page, not another page. Only for a URL seoUrlProblem accepts.
 */
export function normaliseSeoUrl(text: string): string {
  const url = new URL(text);
  url.hash = '';
  return url.href;
}

/** The key of a normalised URL's reports: its SHA-256, base64url (43 characters, whatever the URL's length). */
export const urlKeyOf = (normalisedUrl: string): string => createHash('sha256').update(normalisedUrl).digest('base64url');

/** A `url` filter as reports store URLs: normalised when it is one a report may be about, else as given (it then matches nothing). */
export const asStoredUrl = (text: string): string => (seoUrlProblem(text) ? text : normaliseSeoUrl(text));
