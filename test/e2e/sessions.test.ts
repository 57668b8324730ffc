import { loginThrottles } from '#core/accounts/throttles';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, login, register, setCookieValue } from '../support/sessions.ts';
import { awayFromWindowEnd } from '../support/throttle-window.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const password = 'correct horse battery';
const attributesOf = (setCookie: string) =>
  setCookie
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());

describe('register', () => {
  it('creates a user with a personal workspace who can log in at once, answering 202 without the user', async () => {
    const created = await register(api, { name: 'Rita', email: 'rita@example.com', password });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ message: expect.any(String) });

    const { answer, session } = await login(api, 'rita@example.com', password);
    expect(answer.body.data).toMatchObject({ name: 'Rita', email: 'rita@example.com', email_verified_at: null });
    const workspaces = await api.call('GET', '/workspaces', as(session));
    expect(workspaces.status).toBe(200);
    expect(workspaces.body.data).toHaveLength(1);
  });
});

describe('login', () => {
  beforeAll(async () => {
    expect((await register(api, { name: 'Lou', email: 'lou@example.com', password })).status).toBe(202);
  });

  it('answers the user and sets an HttpOnly SameSite=Lax session cookie and a readable XSRF-TOKEN cookie (no Secure over http)', async () => {
    const { answer, setCookies } = await login(api, 'lou@example.com', password);
    expect(answer.body.data).toMatchObject({ name: 'Lou', email: 'lou@example.com', id: expect.any(Number) });
    expect(JSON.stringify(answer.body)).not.toContain(password);

    const sessionCookie = setCookies.find((c) => c.startsWith('session='))!;
    const xsrfCookie = setCookies.find((c) => c.startsWith('XSRF-TOKEN='))!;
    expect(setCookieValue(setCookies, 'session')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(setCookieValue(setCookies, 'XSRF-TOKEN')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(attributesOf(sessionCookie)).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(attributesOf(sessionCookie)).not.toContain('secure');
    expect(attributesOf(xsrfCookie)).toEqual(expect.arrayContaining(['samesite=lax', 'path=/']));
    expect(attributesOf(xsrfCookie)).not.toContain('httponly');
    expect(attributesOf(xsrfCookie)).not.toContain('secure');
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password or an unknown email, without a cookie', async () => {
    for (const body of [
      { email: 'lou@example.com', password: 'not the password' },
      { email: 'nobody@example.com', password },
    ]) {
      const answer = await api.call('POST', `${api.runner.origin}/login`, { key: '', body });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: 'unauthorized', error_code: 'INVALID_CREDENTIALS' });
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it('lets a cookie-authenticated GET through without the XSRF header', async () => {
    const { session } = await login(api, 'lou@example.com', password);
    const me = await api.call('GET', '/user', as(session, {}, { xsrf: false }));
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe('lou@example.com');
  });

  it('refuses a cookie-authenticated POST without X-XSRF-TOKEN or with a wrong one (403), and accepts it with the right one', async () => {
    const { session } = await login(api, 'lou@example.com', password);
    const body = { name: 'Cookie workspace' };
    const without = await api.call('POST', '/workspaces', as(session, { body }, { xsrf: false }));
    expect(without.status).toBe(403);
    expect(without.body.error).toBe('access_denied');
    const wrong = await api.call('POST', '/workspaces', as(session, { body, headers: { 'X-XSRF-TOKEN': 'forged-value-forged-value' } }));
    expect(wrong.status).toBe(403);
    const other = await login(api, 'lou@example.com', password);
    const anotherSessionsToken = await api.call(
      'POST',
      '/workspaces',
      as(session, { body, headers: { 'X-XSRF-TOKEN': other.session.xsrfToken } }),
    );
    expect(anotherSessionsToken.status).toBe(403);

    const listedBefore = await api.call('GET', '/workspaces', as(session));
    expect(listedBefore.body.data.map((w: { name: string }) => w.name)).not.toContain('Cookie workspace');

    const right = await api.call('POST', '/workspaces', as(session, { body }));
    expect(right.status).toBe(201);
    expect(right.body.data.name).toBe('Cookie workspace');
  });

  it('ends the session on logout: cookies cleared, and the next request with the old cookie answers 401', async () => {
    const { session } = await login(api, 'lou@example.com', password);
    expect((await api.call('GET', '/user', as(session))).status).toBe(200);

    const withoutXsrf = await api.call('POST', `${api.runner.origin}/logout`, as(session, {}, { xsrf: false }));
    expect(withoutXsrf.status).toBe(403);

    const out = await api.call('POST', `${api.runner.origin}/logout`, as(session));
    expect(out.status).toBe(204);
    const cleared = out.headers.getSetCookie();
    expect(setCookieValue(cleared, 'session')).toBe('');
    expect(cleared.find((c) => c.startsWith('session='))).toMatch(/Max-Age=0/i);

    const after = await api.call('GET', '/user', as(session));
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('unauthorized');
  });
});

describe('login throttling', () => {
  it('answers the 6th failed attempt for an email within the window with 429, Retry-After and retry_after, even with the right password', async () => {
    const email = 'tess@example.com';
    expect((await register(api, { name: 'Tess', email, password })).status).toBe(202);
    await awayFromWindowEnd(loginThrottles.email);

    for (let attempt = 1; attempt <= 5; attempt++) {
      const failed = await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email, password: `wrong-${attempt}` } });
      expect(failed.status).toBe(401);
    }
    const blocked = await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email: 'TESS@example.com', password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ error: 'rate_limit_exceeded', error_code: 'RATE_LIMIT_EXCEEDED' });
    expect(blocked.body.retry_after).toEqual(expect.any(Number));
    expect(blocked.body.retry_after).toBeGreaterThan(0);
    expect(blocked.body.retry_after).toBeLessThanOrEqual(15 * 60);
    expect(blocked.headers.get('retry-after')).toBe(String(blocked.body.retry_after));
    expect(blocked.headers.getSetCookie()).toEqual([]);

    // Another email from the same address is not held back by this one's failures.
    expect((await register(api, { name: 'Uma', email: 'uma@example.com', password })).status).toBe(202);
    const uma = await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email: 'uma@example.com', password } });
    expect(uma.status).toBe(200);
  });
});
