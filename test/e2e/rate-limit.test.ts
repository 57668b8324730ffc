import { type ApiAnswer, startTestApi, type TestApi } from '../support/local-api.ts';
import { as, login, register } from '../support/sessions.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const password = 'correct horse battery staple';

/** Starts in a fresh minute when the current one has too little left for `seconds` of calls. */
async function roomFor(seconds: number) {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < seconds) await new Promise((done) => setTimeout(done, left * 1000 + 50));
}

const limitHeaders = (answer: ApiAnswer) => ({
  limit: answer.headers.get('x-ratelimit-limit'),
  remaining: answer.headers.get('x-ratelimit-remaining'),
  reset: answer.headers.get('x-ratelimit-reset'),
});

/**
 * Calls GET `path` with `key` `left + over` times at once: the window's count is one atomic
 * update, so exactly `left` pass however the calls interleave. Answers the refusals.
 */
async function exhaust(key: string, path: string, left: number, over = 3) {
  const answers = await Promise.all(Array.from({ length: left + over }, () => api.call('GET', path, { key })));
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(left);
  const refused = answers.filter((answer) => answer.status === 429);
  expect(refused).toHaveLength(over);
  // Every refusal names the same window's end.
  expect(new Set(refused.map((answer) => answer.headers.get('x-ratelimit-reset'))).size).toBe(1);
  return refused;
}

describe('the application rate limiter', () => {
  let home: string;
  let liveKey: string;
  let testKey: string;

  beforeAll(async () => {
    const registered = await register(api, { name: 'Lim', email: 'lim@example.com', password });
    expect(registered.status).toBe(202);
    const { session, answer } = await login(api, 'lim@example.com', password);
    // Public routes have no credential to count: no rate-limit headers.
    for (const publicAnswer of [registered, answer])
      expect(limitHeaders(publicAnswer)).toEqual({ limit: null, remaining: null, reset: null });
    const mint = async (environment: 'live' | 'test') => {
      const created = await api.call('POST', '/api-keys', as(session, { body: { name: `limited ${environment}`, environment } }));
      expect(created.status).toBe(201);
      expect(created.body.data.rate_limit_tier).toBe('free');
      return created.body.data as { key: string; workspace_id: string };
    };
    const live = await mint('live');
    liveKey = live.key;
    home = live.workspace_id;
    testKey = (await mint('test')).key;
  });

  it('reports the limit, what remains and the reset on every authenticated answer, errors too', async () => {
    await roomFor(5);
    const first = await api.call('GET', `/workspaces/${home}`, { key: liveKey });
    expect(first.status).toBe(200);
    const before = limitHeaders(first);
    expect(before.limit).toBe('60');
    const reset = Number(before.reset);
    expect(reset % 60).toBe(0);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 60);

    const missing = await api.call('GET', '/workspaces/wks_01ARZ3NDEKTSV4RRFFQ69G5FAV', { key: liveKey });
    expect(missing.status).toBe(404);
    const after = limitHeaders(missing);
    expect(after.limit).toBe('60');
    expect(Number(after.remaining)).toBe(Number(before.remaining) - 1);
    expect(after.reset).toBe(before.reset);

    // A refused credential was never authenticated, so nothing is counted or reported.
    const refused = await api.call('GET', `/workspaces/${home}`, { key: `sk_live_${'0'.repeat(32)}` });
    expect(refused.status).toBe(401);
    expect(limitHeaders(refused).limit).toBeNull();
  });

  it('answers 429 once a free credential has made its 60 requests of the minute', async () => {
    await roomFor(10);
    const window = Math.floor(Date.now() / 60_000);
    // The previous test may have used this minute's allowance in part; count only what is left.
    const probe = await api.call('GET', `/workspaces/${home}`, { key: liveKey });
    expect(probe.status).toBe(200);
    const left = Number(probe.headers.get('x-ratelimit-remaining'));
    const [refused] = await exhaust(liveKey, `/workspaces/${home}`, left);
    if (Math.floor(Date.now() / 60_000) !== window) throw new Error('the minute turned during the test: run it again');
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limitHeaders(refused!)).toEqual({ limit: '60', remaining: '0', reset: expect.stringMatching(/^\d+$/) });
    expect(refused!.body).toMatchObject({
      error: 'rate_limit_exceeded',
      error_code: 'RATE_LIMIT_EXCEEDED',
      retry_after: retryAfter,
      limit: 60,
      remaining: 0,
      reset_at: new Date(Number(limitHeaders(refused!).reset) * 1000).toISOString(),
    });
    // Other credentials of the same user are counted on their own.
    expect((await api.call('GET', `/workspaces/${home}`, { key: testKey })).status).toBe(200);
  });

  it('gives a test key of the same tier twice as many', async () => {
    await roomFor(10);
    const window = Math.floor(Date.now() / 60_000);
    const probe = await api.call('GET', `/workspaces/${home}`, { key: testKey });
    expect(probe.status).toBe(200);
    expect(probe.headers.get('x-ratelimit-limit')).toBe('120');
    const left = Number(probe.headers.get('x-ratelimit-remaining'));
    const [refused] = await exhaust(testKey, `/workspaces/${home}`, left);
    // The window stays shut: a further call is refused too.
    const further = await api.call('GET', `/workspaces/${home}`, { key: testKey });
    if (Math.floor(Date.now() / 60_000) !== window) throw new Error('the minute turned during the test: run it again');
    expect(refused!.body.limit).toBe(120);
    expect(refused!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(further.status).toBe(429);
  });
});
