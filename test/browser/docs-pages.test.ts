import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { registerVerified } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';

/**
 * A person reading the documentation, in Debian's headless Chromium (bin/ensure-chromium.sh
 * installs it): logs in through the login page, opens the three pages, sees operations and
 * the security schemes, tries one call, and nothing is fetched from another origin.
 */
const artefacts = join(process.cwd(), 'test-artefacts');
const email = 'reader@docs.test';
const password = 'correct horse battery';

let api: TestApi;
let browser: Browser;
let page: Page;
let summary: string;
const elsewhere: string[] = [];
const violations: string[] = [];
/** The icon requests the pages made, with their statuses: the served SVG, never /favicon.ico. */
const icons: string[] = [];

jest.setTimeout(120_000);

beforeAll(async () => {
  mkdirSync(artefacts, { recursive: true });
  api = await startTestApi();
  await registerVerified(api, { name: 'Reader', email, password });
  // The summary of an operation today, from the served document: what every page must show.
  const document = (await (await fetch(`${api.runner.origin}/api/openapi.json`)).json()) as {
    paths: Record<string, { get: { summary: string } }>;
  };
  summary = document.paths['/workspaces']!.get.summary;
  browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  page = await browser.newPage();
  // A desktop's width: narrower, Scalar folds its sidebar away as on a phone.
  await page.setViewport({ width: 1280, height: 900 });
  const origin = api.runner.origin;
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
  });
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (/\/favicon\.(svg|ico)$/.test(pathname)) icons.push(`${pathname} ${response.status()}`);
  });
  page.on('console', (message) => {
    // A request the policy blocked, or a UI that could not take the page's settings (Scalar mounting itself with its defaults).
    if (/Content.Security.Policy|mount point|HTML API is deprecated/i.test(message.text())) violations.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

afterEach(() => {
  // Emptied as read, so that each test answers for its own page.
  expect(elsewhere.splice(0)).toEqual([]);
  expect(violations.splice(0)).toEqual([]);
});

const shot = (name: string) => page.screenshot({ path: join(artefacts, `docs-${name}.png`), fullPage: false });
// Strings for the browser to evaluate: this file is compiled without the DOM's types.
const visibleText = () => page.evaluate('document.body.innerText') as Promise<string>;
const shows = (text: string, timeout: number) =>
  page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(text)})`, { timeout });
// biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees (rendered, not hidden nodes) is what these tests assert
const innerText = (element: unknown) => (element as { innerText: string }).innerText;

describe('the documentation pages in a browser', () => {
  it('logs in through the login page and comes back to Swagger UI, where operations render with the user test key authorised', async () => {
    await page.goto(`${api.runner.origin}/api/docs`);
    expect(new URL(page.url()).pathname).toBe('/api/docs/login');
    await page.type('input[name=email]', email);
    await page.type('input[name=password]', password);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(new URL(page.url()).pathname).toBe('/api/docs');
    await page.waitForSelector('.opblock-summary', { timeout: 60_000 });
    await shows(summary, 30_000);
    await page.click('button.authorize');
    await page.waitForSelector('.auth-container');
    const modal = await page.$eval('.dialog-ux', innerText);
    expect(modal).toContain('bearerAuth');
    expect(modal).toContain('basicAuth');
    expect(modal).toContain('sessionCookie');
    await shot('swagger-authorize');
    await page.click('.dialog-ux button.close-modal');
  });

  it('tries GET /workspaces from Swagger UI and shows the 200', async () => {
    const operation = '#operations-Workspaces-listWorkspaces';
    // Locators wait until what they click is visible and still (the operation opens with an animation).
    await page.locator(`${operation} .opblock-summary-control`).setTimeout(30_000).click();
    await page.locator(`${operation} .execute`).setTimeout(30_000).click();
    await page.waitForSelector(`${operation} .live-responses-table tr.response .response-col_status`, { timeout: 30_000 });
    const status = await page.$eval(`${operation} .live-responses-table tr.response .response-col_status`, innerText);
    expect(status.trim()).toMatch(/^200/);
    await shot('swagger-try-it');
  });

  it('Scalar renders the operations and the security schemes', async () => {
    // Scalar renders a tag's operations as they scroll into view: a deep link brings the one asserted.
    await page.goto(`${api.runner.origin}/api/docs/scalar#tag/workspaces/GET/workspaces`);
    await shows(summary, 60_000);
    const text = await visibleText();
    expect(text).toMatch(/bearerAuth|Bearer/);
    // The page's own settings took: the user's test key fills the bearer token.
    await page.waitForFunction(`[...document.querySelectorAll('input')].some((input) => input.value.startsWith('sk_test_'))`, {
      timeout: 20_000,
    });
    await shot('scalar');
  });

  it('Redoc renders the operations and the security schemes', async () => {
    await page.goto(`${api.runner.origin}/api/docs/redoc`);
    await shows(summary, 60_000);
    const text = await visibleText();
    expect(text).toContain('bearerAuth');
    expect(text).toContain('basicAuth');
    await shot('redoc');
  });

  it('shows the icon the docs function serves, and asks nothing for /favicon.ico', () => {
    expect(icons.length).toBeGreaterThan(0);
    expect(new Set(icons)).toEqual(new Set(['/api/docs/assets/favicon.svg 200']));
  });
});
