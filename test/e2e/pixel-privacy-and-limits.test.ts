import { trackLimit } from '#core/pixel/visitors';
import { manualClock } from '../support/deps.ts';
import { startTestApiOnTable, type TableTestApi } from '../support/table-api.ts';

/**
 * What pixel tracking keeps and how much it takes, through the local runner on a clock the
 * test moves: 300 requests a minute per client address (the runner's clients are all
 * 127.0.0.1), no address or user agent in the table, a visitor hash that changes with the
 * day, and events that expire after 90 days.
 */

const clock = manualClock(new Date('2026-03-10T10:00:30Z'));
let api: TableTestApi;
const host = 'limits.example.com';
const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

beforeAll(async () => {
  api = await startTestApiOnTable({ overrides: { clock } });
  const workspaces = await api.call('GET', '/workspaces');
  const workspaceId = workspaces.body.data[0].id;
  const set = await api.call('PATCH', `/workspaces/${workspaceId}`, { body: { settings: { pixel: { enabled: true, domains: [host] } } } });
  expect(set.status).toBe(200);
});
afterAll(() => api.stop());

const pageview = (path = '/') =>
  api.call('POST', '/pixel/track', {
    key: '',
    rawBody: JSON.stringify({ event: 'pageview', url: `https://${host}${path}` }),
    headers: { 'Content-Type': 'text/plain', 'User-Agent': browser },
  });

const stats = async () => (await api.call('GET', '/pixel/stats?from=2026-03-09&to=2026-03-12')).body.data;

it('the 301st request of a minute from one address is 429 with Retry-After; the next minute takes it again', async () => {
  expect(trackLimit).toEqual({ limit: 300, windowSeconds: 60 });
  for (let i = 0; i < trackLimit.limit; i++) expect((await pageview(`/p${i % 7}`)).status).toBe(200);
  const refused = await pageview();
  expect([refused.status, refused.body.error_code, refused.body.limit, refused.body.remaining]).toEqual([
    429,
    'RATE_LIMIT_EXCEEDED',
    300,
    0,
  ]);
  expect(Number(refused.headers.get('retry-after'))).toBe(30);
  expect(refused.headers.get('access-control-allow-origin')).toBe('*');

  clock.advance(30_000);
  expect((await pageview()).body).toEqual({ tracked: true });
  expect((await stats()).days[1]).toEqual({ date: '2026-03-10', pageviews: 301, events: 0, daily_unique_sessions: 1 });
}, 120_000);

it('the same visitor is a new daily unique the next day, under a hash that cannot be linked to the first', async () => {
  clock.advance(24 * 3_600_000);
  expect((await pageview()).body).toEqual({ tracked: true });
  const { days, totals } = await stats();
  expect(days[2]).toEqual({ date: '2026-03-11', pageviews: 1, events: 0, daily_unique_sessions: 1 });
  expect(totals.sum_of_daily_unique_sessions).toBe(2);

  const events = (await api.scan()).filter((item) => String(item.pk).startsWith('PIXELEVT#'));
  const visitorsByDay = new Map(events.map((event) => [event.day, event.visitor]));
  expect(visitorsByDay.size).toBe(2);
  expect(visitorsByDay.get('2026-03-10')).not.toBe(visitorsByDay.get('2026-03-11'));
});

it('no pixel item (site, event, rollup, rate window) holds the address or the user agent, and events expire after 90 days', async () => {
  const items = (await api.scan()).filter((item) => /^(PIXEL|THROTTLE#pixel:)/.test(String(item.pk)));
  expect(new Set(items.map((item) => String(item.pk).split('#')[0]))).toEqual(new Set(['PIXELSITE', 'PIXELEVT', 'PIXELDAY', 'THROTTLE']));
  const dump = JSON.stringify(items);
  for (const secret of ['127.0.0.1', '::1', browser, 'Safari/605']) expect(dump).not.toContain(secret);
  const event = items.find((item) => String(item.pk).startsWith('PIXELEVT#') && item.day === '2026-03-11')!;
  expect(event.ttl).toBe(Date.parse(event.createdAt as string) / 1000 + 90 * 86_400);
});
