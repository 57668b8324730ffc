import { registerVerified } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as } from '../support/sessions.ts';

/**
 * Pixel tracking over HTTP, through the local runner on DynamoDB Local, as a site's pages
 * and a workspace's owner use it: domains claimed in the workspace's settings, the
 * configuration a page loads, the events it sends (JSON or sendBeacon's text/plain), what
 * is not counted, and the stats read back, per environment.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
let serial = 0;
/** A fresh host per test, so that tests never share a site. */
const newHost = () => `site-${++serial}-${Date.now().toString(36)}.example.com`;

async function newWorkspace(name: string, key?: string): Promise<string> {
  const made = await api.call('POST', '/workspaces', { key, body: { name } });
  expect(made.status).toBe(201);
  return made.body.data.id;
}

async function setPixel(workspaceId: string, pixel: object, key?: string) {
  return api.call('PATCH', `/workspaces/${workspaceId}`, { key, body: { settings: { pixel } } });
}

async function trackedSite(pixel: object = {}): Promise<{ workspaceId: string; host: string }> {
  const workspaceId = await newWorkspace(`Tracked ${serial}`);
  const host = newHost();
  expect((await setPixel(workspaceId, { enabled: true, domains: [host], ...pixel })).status).toBe(200);
  return { workspaceId, host };
}

const configFor = (headers: Record<string, string>) => api.call('GET', '/pixel/config', { key: '', headers });

/** What a page's tracker sends: JSON as text/plain (sendBeacon) unless told, from a browser at `origin`. */
function send(body: object, { origin, json = false, userAgent = browser }: { origin?: string; json?: boolean; userAgent?: string } = {}) {
  return api.call('POST', '/pixel/track', {
    key: '',
    rawBody: JSON.stringify(body),
    headers: {
      'Content-Type': json ? 'application/json' : 'text/plain;charset=UTF-8',
      'User-Agent': userAgent,
      ...(origin ? { Origin: origin } : {}),
    },
  });
}

async function expectTracked(body: object, tracked: boolean, options?: Parameters<typeof send>[1]) {
  const answer = await send(body, options);
  expect([answer.status, answer.body]).toEqual([200, { tracked }]);
}

const stats = async (workspaceId: string, query = '', key?: string) => {
  const answer = await api.call('GET', `/pixel/stats${query}`, { key, headers: { 'X-Workspace-ID': workspaceId } });
  expect(answer.status).toBe(200);
  return answer.body.data;
};
const today = () => new Date().toISOString().slice(0, 10);

describe('settings.pixel and domain claims', () => {
  it('a new workspace has pixel tracking off, with every feature and no domains', async () => {
    const id = await newWorkspace('Defaults');
    const { body } = await api.call('GET', `/workspaces/${id}`);
    expect(body.data.settings.pixel).toEqual({
      enabled: false,
      features: { pageviews: true, events: true, sessions: true },
      sample_rate: 1,
      domains: [],
      test_domains: [],
    });
  });

  it('domains are kept as hosts (lower case, punycode), and a patch changes only what it names', async () => {
    const id = await newWorkspace('Hosts');
    const suffix = Date.now().toString(36);
    await setPixel(id, { enabled: true, domains: [`Shop-${suffix}.Example.COM`, 'bücher.de'], features: { sessions: false } });
    const { body } = await setPixel(id, { sample_rate: 0.5 });
    expect(body.data.settings.pixel).toEqual({
      enabled: true,
      features: { pageviews: true, events: true, sessions: false },
      sample_rate: 0.5,
      domains: [`shop-${suffix}.example.com`, 'xn--bcher-kva.de'],
      test_domains: [],
    });
  });

  it.each([
    ['a URL', { domains: ['https://example.com'] }],
    ['a port', { domains: ['example.com:8080'] }],
    ['a path', { domains: ['example.com/shop'] }],
    ['a sample rate above 1', { sample_rate: 1.5 }],
    ['a sample rate too small to store', { sample_rate: 1e-320 }],
    ['an unknown field', { tracking: true }],
    ['eleven domains', { domains: Array.from({ length: 11 }, (_, i) => `d${i}.example.com`) }],
  ])('%s is 422', async (_, pixel) => {
    const id = await newWorkspace('Refused settings');
    const answer = await setPixel(id, pixel);
    expect([answer.status, answer.body.error_code]).toEqual([422, 'VALIDATION_FAILED']);
  });

  it("another tenant's claim is a 409 that does not name its holder; dropping the domain frees it", async () => {
    const { workspaceId, host } = await trackedSite();
    const b = await registerVerified(api, { name: 'Claimer', email: `claimer-${serial}@example.com`, password: 'claimer password' });
    const bWorkspace = (await api.call('GET', '/workspaces', as(b.session))).body.data[0].id;
    const refused = await api.call(
      'PATCH',
      `/workspaces/${bWorkspace}`,
      as(b.session, { body: { settings: { pixel: { domains: ['free.example.org', host.toUpperCase()] } } } }),
    );
    expect([refused.status, refused.body.error_code, refused.body.conflicting_field]).toEqual([
      409,
      'DUPLICATE_RESOURCE',
      'settings.pixel.domains.1',
    ]);
    expect(refused.body.message).toContain(host);
    expect(JSON.stringify(refused.body)).not.toContain(workspaceId);
    // Nothing of the refused change was kept.
    expect((await api.call('GET', `/workspaces/${bWorkspace}`, as(b.session))).body.data.settings.pixel.domains).toEqual([]);

    await setPixel(workspaceId, { domains: [] });
    const claimed = await api.call(
      'PATCH',
      `/workspaces/${bWorkspace}`,
      as(b.session, { body: { settings: { pixel: { domains: [host] } } } }),
    );
    expect(claimed.status).toBe(200);
  });

  it('a host is either live or test in one workspace, and moves between them in one change', async () => {
    const { workspaceId, host } = await trackedSite();
    const both = await setPixel(workspaceId, { test_domains: [host] });
    expect([both.status, Object.keys(both.body.errors)]).toEqual([422, ['settings.pixel.test_domains']]);
    const moved = await setPixel(workspaceId, { domains: [], test_domains: [host] });
    expect(moved.body.data.settings.pixel).toMatchObject({ domains: [], test_domains: [host] });
    await expectTracked({ event: 'pageview', url: `https://${host}/` }, true);
    expect((await stats(workspaceId)).totals.pageviews).toBe(0);
  });

  it('a workspace created with pixel settings claims its domains in its creation, and a second creation with one is 409', async () => {
    const host = newHost();
    const made = await api.call('POST', '/workspaces', {
      body: { name: 'Born tracking', settings: { pixel: { enabled: true, domains: [host] } } },
    });
    expect([made.status, made.body.data.settings.pixel.domains]).toEqual([201, [host]]);
    await expectTracked({ event: 'pageview', url: `https://${host}/` }, true);
    const again = await api.call('POST', '/workspaces', { body: { name: 'Copycat', settings: { pixel: { domains: [host] } } } });
    expect([again.status, again.body.error_code]).toEqual([409, 'DUPLICATE_RESOURCE']);
    const names = (await api.call('GET', '/workspaces?per_page=100')).body.data.map((w: { name: string }) => w.name);
    expect(names).not.toContain('Copycat');
  });

  it('deleting a workspace releases its domains for others, and its sites stop counting', async () => {
    const { workspaceId, host } = await trackedSite();
    expect((await api.call('DELETE', `/workspaces/${workspaceId}`)).status).toBe(204);
    await expectTracked({ event: 'pageview', url: `https://${host}/` }, false);
    const other = await newWorkspace('Next owner');
    expect((await setPixel(other, { domains: [host] })).status).toBe(200);
  });

  it('a platform admin releases a claimed domain: out of its workspace, free for another', async () => {
    const { workspaceId, host } = await trackedSite();
    expect((await api.call('DELETE', `/admin/pixel-domains/${host}`)).status).toBe(204);
    expect((await api.call('GET', `/workspaces/${workspaceId}`)).body.data.settings.pixel.domains).toEqual([]);
    await expectTracked({ event: 'pageview', url: `https://${host}/` }, false);
    expect((await api.call('DELETE', `/admin/pixel-domains/${host}`)).status).toBe(404);
    expect((await setPixel(await newWorkspace('Taker'), { domains: [host] })).status).toBe(200);
  });

  it('releasing a domain is for platform admins only', async () => {
    const { host } = await trackedSite();
    const b = await registerVerified(api, { name: 'Not admin', email: `not-admin-${serial}@example.com`, password: 'not an admin' });
    const refused = await api.call('DELETE', `/admin/pixel-domains/${host}`, as(b.session));
    expect(refused.status).toBe(403);
    await expectTracked({ event: 'pageview', url: `https://${host}/` }, true);
  });
});

describe('GET /pixel/config', () => {
  it('answers a claimed site by its Origin (any port), else its Referer, with CORS for any origin', async () => {
    const { host } = await trackedSite({ sample_rate: 0.25, features: { events: false } });
    const expected = { enabled: true, features: { pageviews: true, events: false, sessions: true }, sample_rate: 0.25 };
    const byOrigin = await configFor({ Origin: `https://${host}:8443` });
    expect([byOrigin.status, byOrigin.body.data]).toEqual([200, expected]);
    expect(byOrigin.headers.get('access-control-allow-origin')).toBe('*');
    expect((await configFor({ Referer: `https://${host}/pricing?plan=pro` })).body.data).toEqual(expected);
  });

  it('an unknown, unclaimed or disabled site gets the same disabled configuration, never an error', async () => {
    const disabled = { enabled: false, features: { pageviews: false, events: false, sessions: false }, sample_rate: 0 };
    const { host } = await trackedSite({ enabled: false });
    const asking: Record<string, string>[] = [
      { Origin: `https://${host}` },
      { Origin: `https://${newHost()}` },
      { Origin: 'null' },
      {},
      { Referer: 'not a url' },
    ];
    for (const headers of asking) {
      const answer = await configFor(headers);
      expect([answer.status, answer.body.data]).toEqual([200, disabled]);
    }
  });

  it("answers a browser's preflight from any origin", async () => {
    const preflight = await fetch(`${api.runner.baseUrl}/pixel/track`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://anywhere.example.org',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type');
  });
});

describe('POST /pixel/track', () => {
  it('counts pageviews and events of a claimed site, sent as text/plain or JSON, and /pixel/stats shows them', async () => {
    const { workspaceId, host } = await trackedSite();
    const origin = `https://${host}`;
    await expectTracked({ event: 'pageview', url: `${origin}/pricing?utm=x`, referrer: 'https://news.example.org/item/1' }, true, {
      origin,
    });
    await expectTracked({ event: 'pageview', url: `${origin}/pricing`, referrer: `${origin}/` }, true, { origin, json: true });
    // A hash route's own query string is dropped too: it counts as /app#/settings.
    await expectTracked({ event: 'pageview', url: `${origin}/app#/settings?token=secret`, referrer: '' }, true, { origin });
    await expectTracked(
      { event: 'signup', url: `${origin}/pricing`, properties: { plan: 'pro', seats: 3, trial: true, coupon: null } },
      true,
      {
        origin,
      },
    );
    // Another visitor (user agent) of the same address.
    await expectTracked({ event: 'pageview', url: `${origin}/` }, true, { origin, userAgent: `${browser} Edg/126.0` });

    const data = await stats(workspaceId);
    expect(data.to).toBe(today());
    expect(data.days).toHaveLength(7);
    expect(data.days.at(-1)).toEqual({ date: today(), pageviews: 4, events: 1, daily_unique_sessions: 2 });
    expect(data.totals).toEqual({ pageviews: 4, events: 1, sum_of_daily_unique_sessions: 2 });
    expect(data.top_pages).toEqual([
      { path: '/pricing', pageviews: 2 },
      { path: '/', pageviews: 1 },
      { path: '/app#/settings', pageviews: 1 },
    ]);
    // The site's own pages are navigation, not referrals.
    expect(data.top_referrers).toEqual([{ referrer: 'news.example.org', pageviews: 1 }]);
    expect(data.top_events).toEqual([{ name: 'signup', count: 1 }]);
  });

  it('counts nothing, and answers tracked false, for unknown sites, forged origins, bots, spam and what the settings turn off', async () => {
    const { workspaceId, host } = await trackedSite({ features: { events: false } });
    const url = `https://${host}/`;
    await expectTracked({ event: 'pageview', url: `https://${newHost()}/` }, false);
    await expectTracked({ event: 'pageview', url }, false, { origin: 'https://attacker.example.net' });
    await expectTracked({ event: 'pageview', url }, false, { userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
    await expectTracked({ event: 'pageview', url }, false, { userAgent: browser.replace('Chrome', 'HeadlessChrome') });
    await expectTracked({ event: 'pageview', url }, false, { userAgent: '' });
    await expectTracked({ event: 'pageview', url, referrer: 'https://www.semalt.com/crawler' }, false);
    await expectTracked({ event: 'signup', url }, false);
    expect((await stats(workspaceId)).totals).toEqual({ pageviews: 0, events: 0, sum_of_daily_unique_sessions: 0 });

    await setPixel(workspaceId, { sample_rate: 0 });
    await expectTracked({ event: 'pageview', url }, false);
    await setPixel(workspaceId, { sample_rate: 1, enabled: false });
    await expectTracked({ event: 'pageview', url }, false);
  });

  it('a site without sessions counts no uniques', async () => {
    const { workspaceId, host } = await trackedSite({ features: { sessions: false } });
    await expectTracked({ event: 'pageview', url: `https://${host}/` }, true);
    expect((await stats(workspaceId)).totals).toEqual({ pageviews: 1, events: 0, sum_of_daily_unique_sessions: 0 });
  });

  it.each([
    ['nested properties', { event: 'x', url: 'https://a.example.com/', properties: { deep: { a: 1 } } }],
    ['an array property', { event: 'x', url: 'https://a.example.com/', properties: { list: [1] } }],
    [
      '21 properties',
      { event: 'x', url: 'https://a.example.com/', properties: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, i])) },
    ],
    ['a number past the safe integers', { event: 'x', url: 'https://a.example.com/', properties: { n: 1e16 } }],
    ['a number too small to store', { event: 'x', url: 'https://a.example.com/', properties: { n: 1e-200 } }],
    ['a property named constructor', { event: 'x', url: 'https://a.example.com/', properties: JSON.parse('{"constructor":1}') }],
    ['a relative url', { event: 'pageview', url: '/pricing' }],
    ['a javascript: url', { event: 'pageview', url: 'javascript:alert(1)' }],
    ['a long url', { event: 'pageview', url: `https://a.example.com/${'x'.repeat(2100)}` }],
    ['no event', { url: 'https://a.example.com/' }],
  ])('%s is 422 in the error envelope', async (_, body) => {
    const answer = await send(body);
    expect([answer.status, answer.body.error_code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a body that is not JSON is 400, a form is 400, and 1 MB is 413', async () => {
    const notJson = await api.call('POST', '/pixel/track', {
      key: '',
      rawBody: 'pageview please',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect([notJson.status, notJson.body.error_code]).toEqual([400, 'INVALID_FORMAT']);
    const form = await api.call('POST', '/pixel/track', {
      key: '',
      rawBody: 'event=pageview',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.body.error_code]).toEqual([400, 'INVALID_FORMAT']);
    const huge = await send({ event: 'pageview', url: 'https://a.example.com/', properties: { big: 'x'.repeat(1024 * 1024) } });
    expect([huge.status, huge.body.error_code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });
});

describe('GET /pixel/stats', () => {
  it('a test key reads the test domains, a live key the live ones', async () => {
    const { workspaceId, host } = await trackedSite();
    const staging = newHost();
    await setPixel(workspaceId, { test_domains: [staging] });
    await expectTracked({ event: 'pageview', url: `https://${host}/` }, true);
    await expectTracked({ event: 'pageview', url: `https://${staging}/` }, true);
    await expectTracked({ event: 'pageview', url: `https://${staging}/beta` }, true);
    const made = await api.call('POST', '/api-keys', {
      body: { name: 'test reader', scopes: ['analytics:read'], environment: 'test', workspace_id: workspaceId },
    });
    const testKey = made.body.data.key;
    expect((await stats(workspaceId)).totals.pageviews).toBe(1);
    expect((await stats(workspaceId, '', testKey)).totals.pageviews).toBe(2);
    // A test key cannot claim domains: that changes the live workspace.
    expect((await setPixel(workspaceId, { test_domains: [] }, testKey)).status).toBe(403);
  });

  it('asks for a range of days, at most 93, and needs analytics:read', async () => {
    const { workspaceId } = await trackedSite();
    const data = await stats(workspaceId, '?from=2026-01-01&to=2026-01-31');
    expect([data.days.length, data.days[0].date, data.days[30].date]).toEqual([31, '2026-01-01', '2026-01-31']);
    for (const query of ['?from=2026-01-01&to=2026-06-01', '?from=2026-02-02&to=2026-02-01', '?from=yesterday']) {
      const refused = await api.call('GET', `/pixel/stats${query}`, { headers: { 'X-Workspace-ID': workspaceId } });
      expect([refused.status, refused.body.error_code]).toEqual([422, 'VALIDATION_FAILED']);
    }
    const made = await api.call('POST', '/api-keys', {
      body: { name: 'no analytics', scopes: ['workspaces:read'], workspace_id: workspaceId },
    });
    const denied = await api.call('GET', '/pixel/stats', { key: made.body.data.key });
    expect([denied.status, denied.body.required_scope]).toEqual([403, 'analytics:read']);
  });

  it("another tenant cannot read a workspace's stats", async () => {
    const { workspaceId } = await trackedSite();
    const b = await registerVerified(api, { name: 'Reader', email: `reader-${serial}@example.com`, password: 'reader password' });
    const refused = await api.call('GET', '/pixel/stats', as(b.session, { headers: { 'X-Workspace-ID': workspaceId } }));
    expect(refused.status).toBe(403);
  });
});
