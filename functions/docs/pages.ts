import { escapeHtml } from '#core/platform/html';
import type { AssetName } from './assets.ts';
import { docsPaths, type Page } from './routes.ts';

/**
 * Every documentation answer's headers: a page loads only what this service serves, with inline
 * styles (the UIs inject them) and blob: workers (Redoc's search) as the only exceptions.
 */
export const docsPageHeaders = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const titles: Record<Page, string> = { swagger: 'API documentation', scalar: 'API reference (Scalar)', redoc: 'API reference (Redoc)' };

/** What each page loads, in order: the UI's bundle, the shared try-it key script, then the page's own start-up. */
const scripts: Record<Page, AssetName[]> = {
  swagger: ['swagger-ui-bundle.js', 'try-it-key.js', 'swagger-page.js'],
  scalar: ['scalar-standalone.js', 'try-it-key.js', 'scalar-page.js'],
  redoc: ['redoc.standalone.js', 'redoc-page.js'],
};

const styles: Record<Page, AssetName[]> = { swagger: ['swagger-ui.css', 'docs.css'], scalar: ['docs.css'], redoc: ['docs.css'] };

const asset = (base: string, name: AssetName) => `${base}${docsPaths.assets}${name}`;

/** Every page names its icon, so no browser asks for /favicon.ico, which nothing serves. */
const icon = (base: string) => `<link rel="icon" type="image/svg+xml" href="${asset(base, 'favicon.svg')}">`;

const nav = (base: string) =>
  `<nav class="docs-nav"><a href="${base}/api/docs">Swagger UI</a> <a href="${base}/api/docs/scalar">Scalar</a> <a href="${base}/api/docs/redoc">Redoc</a> <a href="${base}/api/llms.txt">llms.txt</a> <a href="${base}/api/openapi.yaml">openapi.yaml</a></nav>`;

/**
 * A documentation page under `base` (an API Gateway stage's path; empty locally). The
 * document's URL is `data-openapi-url`: Scalar would take `data-spec-url` or `data-url` and
 * mount itself over the page.
 */
export function docsPage(page: Page, base: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>${titles[page]}</title>
${icon(base)}
${styles[page].map((name) => `<link rel="stylesheet" href="${asset(base, name)}">`).join('\n')}
</head>
<body class="docs-${page}" data-openapi-url="${base}${docsPaths.openapiJson}" data-try-it-key-url="${base}${docsPaths.tryItKey}">
${nav(base)}
<div id="docs"></div>
${scripts[page].map((name) => `<script src="${asset(base, name)}"></script>`).join('\n')}
</body>
</html>
`;
}

/** The login page: its script posts the form as JSON to /login and then opens `returnTo` (checked by safeReturnPath). */
export function loginPage(returnTo: string, base: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>Log in to read the API documentation</title>
${icon(base)}
<link rel="stylesheet" href="${asset(base, 'docs.css')}">
</head>
<body class="docs-login">
<main>
<h1>Log in to read the API documentation</h1>
<form id="login" method="post" action="${escapeHtml(base)}/login" data-return-to="${escapeHtml(base + returnTo)}">
<label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Log in</button>
<p id="login-error" role="alert"></p>
</form>
</main>
<script src="${asset(base, 'login-page.js')}"></script>
</body>
</html>
`;
}
