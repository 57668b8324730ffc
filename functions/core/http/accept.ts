/** The weight `accept` gives one media type, by its exact range only (RFC 9110 section 12.5.1); 0 when not named. */
function weightOf(accept: string, mediaType: string): number {
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== mediaType) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    return Number.isFinite(weight) ? weight : 0;
  }
  return 0;
}

/**
 * Does the client ask for JSON rather than a page? Only when its Accept names
 * application/json above text/html: a browser's navigation names text/html first, and a
 * client that names neither (or only *\/*) gets the page.
 */
export const asksForJson = (accept: string | undefined): boolean =>
  !!accept && weightOf(accept, 'application/json') > weightOf(accept, 'text/html');
