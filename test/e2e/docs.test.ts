import { parse as parseYaml } from 'yaml';
import { tryItKeyThrottle } from '#core/docs/try-it-keys';
import { registerVerified } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential } from '../support/sessions.ts';

let api: TestApi;
let session: Extract<Credential, { type: 'session' }>;
let userId: number;
beforeAll(async () => {
  api = await startTestApi();
  ({ session, userId } = await registerVerified(api, { name: 'Dora Docs', email: 'dora@docs.test', password: 'correct horse battery' }));
});
afterAll(() => api.stop());

/** The documentation's paths are not operations of openapi.yaml: fetched as a browser would, redirects answered rather than followed. */
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.runner.origin}${path}`, { redirect: 'manual', headers });
/** A JSON body, as a test reads it. */
const jsonOf = (answer: Response): Promise<any> => answer.json();
const cookies = () => ({ Cookie: `session=${session.sessionId}; XSRF-TOKEN=${session.xsrfToken}` });

describe('the documentation pages', () => {
  it.each(['/api/docs', '/api/docs/scalar', '/api/docs/redoc'])(
    '%s without a session sends the browser to the login page, which comes back',
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get('location')!);
      expect(location.origin).toBe(api.runner.origin);
      expect(location.pathname).toBe('/api/docs/login');
      expect(location.searchParams.get('return')).toBe(path);
      const login = await get(location.pathname + location.search);
      expect(login.status).toBe(200);
      expect(await login.text()).toContain(`data-return-to="${path}"`);
    },
  );

  it.each([
    'https://evil.test/api/docs',
    '//evil.test/api/docs',
    '/\\evil.test',
    '/api/docs/../../evil',
    '/elsewhere',
    'javascript:alert(1)',
  ])('the login page never returns to %s: it goes back to /api/docs', async (returnTo) => {
    const html = await (await get(`/api/docs/login?return=${encodeURIComponent(returnTo)}`)).text();
    expect(html).toContain('data-return-to="/api/docs"');
    expect(html).not.toContain('evil');
  });

  it.each(['/api/docs', '/api/docs/scalar', '/api/docs/redoc'])(
    '%s with a session is the page, under a strict Content-Security-Policy',
    async (path) => {
      const answer = await get(path, cookies());
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/html');
      const csp = answer.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/https?:/);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await answer.text()).not.toMatch(/(src|href)="(https?:)?\/\//);
    },
  );

  it('an ended session is sent to log in again', async () => {
    const answer = await get('/api/docs', { Cookie: 'session=not-a-session' });
    expect(answer.status).toBe(303);
  });

  it('serves the bundles from the npm packages, gzipped when asked', async () => {
    const plain = await get('/api/docs/assets/swagger-ui-bundle.js', { 'Accept-Encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toContain('javascript');
    const zipped = await get('/api/docs/assets/scalar-standalone.js', { 'Accept-Encoding': 'gzip' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect((await zipped.text()).length).toBeGreaterThan(1_000_000);
    expect((await get('/api/docs/assets/../../package.json')).status).toBe(404);
  });

  it('every page, the login page too, names the icon it serves itself: an SVG, answered 200', async () => {
    for (const path of ['/api/docs', '/api/docs/scalar', '/api/docs/redoc', '/api/docs/login']) {
      expect(await (await get(path, cookies())).text()).toContain(
        '<link rel="icon" type="image/svg+xml" href="/api/docs/assets/favicon.svg">',
      );
    }
    const icon = await get('/api/docs/assets/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg [^>]*viewBox="0 0 32 32"/);
  });

  it('answers other methods 405 and unknown paths 404, in the envelope', async () => {
    const post = await fetch(`${api.runner.origin}/api/docs`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const missing = await get('/api/docs/nothing-here');
    expect(missing.status).toBe(404);
    expect(await jsonOf(missing)).toMatchObject({ error_code: 'ENDPOINT_NOT_FOUND' });
  });
});

describe('the try-it key', () => {
  const issue = (headers: Record<string, string>) =>
    fetch(`${api.runner.origin}/api/docs/try-it-key`, { method: 'POST', headers: { ...cookies(), ...headers } });

  it('is a test key of the signed-in user, read-only and short-lived, and a new one replaces the last', async () => {
    const first = await issue({ 'X-XSRF-TOKEN': session.xsrfToken });
    expect(first.status).toBe(201);
    const { data } = await jsonOf(first);
    expect(data.key).toMatch(/^sk_test_/);
    expect(data).toMatchObject({ name: 'API docs try-it', environment: 'test', scopes: ['read:all'] });
    expect(new Date(data.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
    const me = await api.call('GET', '/user', { key: data.key });
    expect(me.body.data.id).toBe(userId);
    expect((await api.call('GET', '/workspaces', { key: data.key })).status).toBe(200);

    const second = (await jsonOf(await issue({ 'X-XSRF-TOKEN': session.xsrfToken }))).data;
    expect((await api.call('GET', '/user', { key: data.key })).status).toBe(401);
    const keys = (await api.call('GET', '/api-keys', as(session, {}, { xsrf: false }))).body.data;
    expect(keys.filter((k: { name: string }) => k.name === 'API docs try-it').map((k: { id: string }) => k.id)).toEqual([second.id]);
  });

  it('is issued again after the last one was rotated away (nothing left to revoke is no failure)', async () => {
    const first = (await jsonOf(await issue({ 'X-XSRF-TOKEN': session.xsrfToken }))).data;
    const rotated = await api.call('POST', `/api-keys/${first.id}/rotate`, as(session, { body: { grace_period_hours: 0 } }));
    expect(rotated.status).toBe(200);
    expect((await issue({ 'X-XSRF-TOKEN': session.xsrfToken })).status).toBe(201);
  });

  it('is refused as the API refuses its workspace: unpaid 402, suspended 403', async () => {
    const { session: own } = await registerVerified(api, { name: 'Una Unpaid', email: 'una@docs.test', password: 'correct horse battery' });
    const workspaceId = (await api.call('GET', '/workspaces', as(own))).body.data[0].id as string;
    const tryIt = () =>
      fetch(`${api.runner.origin}/api/docs/try-it-key`, {
        method: 'POST',
        headers: { Cookie: `session=${own.sessionId}; XSRF-TOKEN=${own.xsrfToken}`, 'X-XSRF-TOKEN': own.xsrfToken },
      });
    expect((await api.call('PATCH', `/admin/workspaces/${workspaceId}`, { body: { billing_status: 'unpaid' } })).status).toBe(200);
    const unpaid = await tryIt();
    expect([unpaid.status, (await jsonOf(unpaid)).error_code]).toEqual([402, 'PAYMENT_REQUIRED']);
    await api.call('PATCH', `/admin/workspaces/${workspaceId}`, { body: { billing_status: 'paid' } });
    expect((await api.call('POST', `/admin/workspaces/${workspaceId}/suspend`, { body: { reason: 'audit' } })).status).toBe(200);
    const suspended = await tryIt();
    expect([suspended.status, (await jsonOf(suspended)).error_code]).toEqual([403, 'WORKSPACE_SUSPENDED']);
  });

  it(`is throttled per user: at most ${tryItKeyThrottle.limit} a minute, then 429 with Retry-After`, async () => {
    const { session: eager } = await registerVerified(api, {
      name: 'Eager Reloader',
      email: 'eager@docs.test',
      password: 'correct horse battery',
    });
    const tryIt = () =>
      fetch(`${api.runner.origin}/api/docs/try-it-key`, {
        method: 'POST',
        headers: { Cookie: `session=${eager.sessionId}; XSRF-TOKEN=${eager.xsrfToken}`, 'X-XSRF-TOKEN': eager.xsrfToken },
      });
    // Sequential calls span at most two windows: the limit's double plus one must meet a 429.
    const statuses: number[] = [];
    let refused: Response | undefined;
    while (!refused && statuses.length <= 2 * tryItKeyThrottle.limit) {
      const answer = await tryIt();
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    expect(statuses.slice(0, tryItKeyThrottle.limit)).toEqual(Array(tryItKeyThrottle.limit).fill(201));
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await jsonOf(refused!)).error_code).toBe('RATE_LIMIT_EXCEEDED');
  }, 60_000);

  it('needs the XSRF token and a session', async () => {
    expect((await issue({})).status).toBe(403);
    expect((await fetch(`${api.runner.origin}/api/docs/try-it-key`, { method: 'POST' })).status).toBe(401);
  });
});

describe('the document and llms.txt, public', () => {
  it('/api/openapi.json is /api/openapi.yaml, with this runner as the server', async () => {
    const json = await jsonOf(await get('/api/openapi.json'));
    const yamlAnswer = await get('/api/openapi.yaml');
    expect(yamlAnswer.headers.get('content-type')).toContain('yaml');
    expect(parseYaml(await yamlAnswer.text())).toEqual(json);
    expect(json.servers[0].variables.base_url.default).toBe(api.runner.origin);
    // The contact is this runner's own documentation, whatever the committed file says.
    expect(json.info.contact).toEqual({ name: 'Tenant API documentation', url: `${api.runner.origin}/api/docs` });
    expect(json.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(Object.keys(json.paths)).toContain('/workspaces');
  });

  it('/api/llms.txt links a Markdown page for every operation of openapi.yaml', async () => {
    const document = await jsonOf(await get('/api/openapi.json'));
    const operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).flatMap((op) => op?.operationId ?? []),
    );
    const index = await (await get('/api/llms.txt')).text();
    expect(index).toMatch(/^# Tenant API/);
    for (const id of operationIds) expect(index).toContain(`${api.runner.origin}/api/llms/${id}.md`);
  });

  it('an operation page says what it does, how to call it and what it answers', async () => {
    const answer = await get('/api/llms/listWorkspaces.md');
    expect(answer.headers.get('content-type')).toContain('text/markdown');
    const markdown = await answer.text();
    expect(markdown).toContain('`GET /workspaces`');
    expect(markdown).toContain('Scope: `workspaces:read`');
    expect(markdown).toContain(`curl -X GET '${api.runner.origin}/api/v1/workspaces'`);
    expect(markdown).toContain('- 200:');
    expect((await get('/api/llms/noSuchOperation.md')).status).toBe(404);
  });
});
