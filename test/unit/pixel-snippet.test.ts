import { readFileSync } from 'node:fs';
import { createContext, runInContext } from 'node:vm';

/**
 * The tracker snippet (docs/pixel.md) (public/pixel.js), run in a small stand-in of a browser
 * page: a location the history API moves, listeners, a script element with its data
 * attributes, sendBeacon and fetch recorded. What it sends is what a site's pages would.
 */

const source = readFileSync(new URL('../../public/pixel.js', import.meta.url), 'utf8');

interface Sent {
  event: string;
  url: string;
  properties?: Record<string, unknown>;
}

function page(attributes: Record<string, string>, config = { enabled: true, features: { pageviews: true, events: true, sessions: true } }) {
  let url = new URL('https://shop.example.com/');
  const listeners: Record<string, ((event: unknown) => void)[]> = {};
  const listen = (type: string, listener: (event: unknown) => void) => {
    listeners[type] ??= [];
    listeners[type].push(listener);
  };
  const sent: Sent[] = [];
  const beacons: string[] = [];
  const location = {
    get href() {
      return url.href;
    },
    get pathname() {
      return url.pathname;
    },
    get hash() {
      return url.hash;
    },
    get host() {
      return url.host;
    },
  };
  const history = {
    pushState: (_state: unknown, _title: string, to: string) => {
      url = new URL(to, url);
    },
    replaceState: (_state: unknown, _title: string, to: string) => {
      url = new URL(to, url);
    },
  };
  const window = {
    addEventListener: listen,
    pixel: undefined as undefined | ((event: string, properties?: object) => void),
  };
  const context = createContext({
    window,
    location,
    history,
    URL,
    JSON,
    document: {
      referrer: 'https://news.example.org/',
      addEventListener: listen,
      currentScript: { getAttribute: (name: string) => attributes[name] ?? null, hasAttribute: (name: string) => name in attributes },
    },
    navigator: {
      userAgent: 'Mozilla/5.0 Test',
      sendBeacon: (to: string, body: string) => {
        beacons.push(to);
        sent.push(JSON.parse(body));
        return true;
      },
    },
    fetch: async () => ({ json: async () => ({ data: config }) }),
  });
  runInContext(source, context);
  const settled = () => new Promise((done) => setImmediate(done));
  const fire = (type: string, event: unknown = {}) => {
    for (const listener of listeners[type] ?? []) listener(event);
  };
  /** A browser's back or forward: the location changes, then popstate, and hashchange when only the hash did. */
  const back = (to: string) => {
    const hashOnly = new URL(to, url).pathname === url.pathname;
    url = new URL(to, url);
    fire('popstate');
    if (hashOnly) fire('hashchange');
  };
  const click = (href: string) => fire('click', { target: { closest: () => ({ href }) } });
  return { sent, beacons, history, window, settled, back, click };
}

const pages = (sent: Sent[]) => sent.filter((s) => s.event === 'pageview').map((s) => new URL(s.url).pathname + new URL(s.url).hash);

it('sends one pageview per page of a single-page app: on load, pushState, and back, never twice in a row', async () => {
  const tab = page({ 'data-api': 'https://api.example.com/api/v1/' });
  await tab.settled();
  tab.history.pushState({}, '', '/pricing');
  tab.history.replaceState({}, '', '/pricing');
  tab.history.pushState({}, '', '/pricing?plan=pro');
  tab.back('/');
  expect(pages(tab.sent)).toEqual(['/', '/pricing', '/']);
  expect(new Set(tab.beacons)).toEqual(new Set(['https://api.example.com/api/v1/pixel/track']));
  expect(tab.sent[0]).toEqual({
    event: 'pageview',
    url: 'https://shop.example.com/',
    referrer: 'https://news.example.org/',
    user_agent: 'Mozilla/5.0 Test',
  });
});

it('with data-hash counts hash routes, and going back (popstate and hashchange both) counts once', async () => {
  const tab = page({ 'data-api': '', 'data-hash': '' });
  await tab.settled();
  tab.history.pushState({}, '', '/#/settings');
  tab.back('/#/');
  tab.back('/#/settings');
  expect(pages(tab.sent)).toEqual(['/', '/#/settings', '/#/', '/#/settings']);
});

it('sends outbound and download clicks only where the site opts in, and 404 when the page asks', async () => {
  const opted = page({ 'data-api': '', 'data-outbound-links': '', 'data-file-downloads': '' });
  await opted.settled();
  opted.click('https://elsewhere.example.net/about');
  opted.click('/files/report.pdf');
  opted.click('/pricing');
  opted.window.pixel!('404', { path: '/missing' });
  expect(opted.sent.slice(1)).toEqual([
    expect.objectContaining({ event: 'outbound', properties: { url: 'https://elsewhere.example.net/about' } }),
    expect.objectContaining({ event: 'download', properties: { url: 'https://shop.example.com/files/report.pdf' } }),
    expect.objectContaining({ event: '404', properties: { path: '/missing' } }),
  ]);

  // A link longer than a property holds is counted by its first 256 characters, not refused.
  const long = `https://elsewhere.example.net/${'a'.repeat(400)}`;
  opted.click(long);
  expect(opted.sent.at(-1)).toMatchObject({ event: 'outbound', properties: { url: long.slice(0, 256) } });

  const plain = page({ 'data-api': '' });
  await plain.settled();
  plain.click('https://elsewhere.example.net/about');
  plain.click('/files/report.pdf');
  expect(plain.sent.map((s) => s.event)).toEqual(['pageview']);
});

it('sends nothing for a site that is not tracked, or what its features turn off', async () => {
  const untracked = page({ 'data-api': '' }, { enabled: false, features: { pageviews: false, events: false, sessions: false } });
  untracked.window.pixel!('signup');
  await untracked.settled();
  untracked.history.pushState({}, '', '/next');
  expect(untracked.sent).toEqual([]);

  const pageviewsOnly = page({ 'data-api': '' }, { enabled: true, features: { pageviews: true, events: false, sessions: true } });
  await pageviewsOnly.settled();
  pageviewsOnly.window.pixel!('signup');
  expect(pageviewsOnly.sent.map((s) => s.event)).toEqual(['pageview']);
});
