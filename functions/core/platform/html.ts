/**
 * The service's own HTML pages (OAuth's consent page, the pages of mailed links): one
 * escaping, one frame, one set of headers.
 */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * No script and nothing loaded from anywhere, forms posting to this origin only, never
 * framed (clickjacking), and no Referer, since a page's URL may carry a token. Never cached
 * either: every answer says Cache-Control: no-store.
 */
export const pageHeaders = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/** A whole page around `body`, HTML the caller built with escapeHtml; the title is escaped here. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}</style></head>
<body>
${body}
</body>
</html>
`;
}
