import { request } from 'node:http';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { assertMatchesContract } from '../support/openapi-validator.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ over: 'http' });
});
afterAll(() => api.stop());

const envelope = (body: Record<string, unknown>) => {
  expect(body).toEqual(
    expect.objectContaining({
      error: expect.any(String),
      error_code: expect.any(String),
      message: expect.any(String),
      request_id: expect.any(String),
      meta: expect.objectContaining({ request_id: body.request_id, timestamp: expect.any(String) }),
    }),
  );
};

describe('the error envelope', () => {
  it('answers a missing Authorization header with 401 UNAUTHENTICATED', async () => {
    const answer = await api.call('GET', '/workspaces', { key: '' });
    expect(answer.status).toBe(401);
    envelope(answer.body);
    expect(answer.body).toMatchObject({ error: 'unauthorized', error_code: 'UNAUTHENTICATED' });
    expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
  });

  it('answers an unknown or malformed key with 401 INVALID_API_KEY, and an unknown bearer with 401', async () => {
    for (const key of ['sk_live_00000000000000000000000000000000', 'sk_live_short']) {
      const answer = await api.call('GET', '/workspaces', { key });
      expect(answer.status).toBe(401);
      expect(answer.body.error_code).toBe('INVALID_API_KEY');
    }
    const unknown = await api.call('GET', '/workspaces', { key: 'not-a-credential' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ error: 'unauthorized', error_code: 'UNAUTHENTICATED' });
  });

  it('accepts the key as the HTTP Basic user name', async () => {
    const basic = Buffer.from(`${api.adminKey}:`).toString('base64');
    const answer = await api.call('GET', '/workspaces', { key: '', headers: { Authorization: `Basic ${basic}` } });
    expect(answer.status).toBe(200);
  });

  it('answers a missing scope with 403, required_scope and provided_scopes', async () => {
    const created = await api.call('POST', '/api-keys', { body: { name: 'reader', scopes: ['workspaces:read'] } });
    const answer = await api.call('POST', '/workspaces', { key: created.body.data.key, body: { name: 'nope' } });
    expect(answer.status).toBe(403);
    envelope(answer.body);
    expect(answer.body).toMatchObject({
      error: 'access_denied',
      error_code: 'INSUFFICIENT_PERMISSIONS',
      required_scope: 'workspaces:write',
      provided_scopes: ['workspaces:read'],
    });
  });

  it('answers an unknown path, or a version this service does not serve, with 404 ENDPOINT_NOT_FOUND and requested_path', async () => {
    for (const path of ['/api/v1/nothing-here', '/', '/api/v2/workspaces', '/api/v0/workspaces', '/api/v1/workspaces/wks_1/deeper']) {
      const answer = await api.call('GET', api.runner.origin + path);
      expect(answer.status).toBe(404);
      envelope(answer.body);
      expect(answer.body).toMatchObject({ error: 'not_found', error_code: 'ENDPOINT_NOT_FOUND', requested_path: path });
    }
    for (const method of ['POST', 'DELETE']) {
      const answer = await api.call(method, `${api.runner.origin}/api/v2/workspaces`, { body: { name: 'x' } });
      expect(answer.body).toMatchObject({ error_code: 'ENDPOINT_NOT_FOUND', requested_path: '/api/v2/workspaces' });
    }
  });

  it('carries no deprecation headers while the version is not deprecated', async () => {
    const answer = await api.call('GET', '/workspaces');
    expect([answer.headers.get('deprecation'), answer.headers.get('sunset'), answer.headers.get('link')]).toEqual([null, null, null]);
  });

  it('answers a JSON body that is not an object with 400 INVALID_TYPE, and no body where one is required with 400 MISSING_PARAMETER', async () => {
    for (const rawBody of ['[]', '"a name"', '42', 'null', 'true']) {
      const answer = await api.call('POST', '/workspaces', { rawBody, headers: { 'Content-Type': 'application/json' } });
      expect({ rawBody, status: answer.status }).toEqual({ rawBody, status: 400 });
      envelope(answer.body);
      expect(answer.body).toMatchObject({ error: 'bad_request', error_code: 'INVALID_TYPE', errors: { body: ['must be a JSON object'] } });
    }
    const none = await api.call('POST', '/workspaces');
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: 'bad_request', error_code: 'MISSING_PARAMETER', errors: { name: ['is required'] } });
    // A route whose body is all optional takes none at all.
    const spare = (await api.call('POST', '/api-keys', { body: { name: 'to rotate' } })).body.data;
    expect((await api.call('POST', `/api-keys/${spare.id}/rotate`)).status).toBe(200);
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const answer = await api.call('PUT', '/workspaces');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
    envelope(answer.body);
    expect(answer.body.error).toBe('method_not_allowed');
  });

  it('refuses a repeated query parameter with 422 naming it, instead of keeping the last value', async () => {
    const answer = await api.call('GET', '/workspaces?sort=name&sort=-created_at&per_page=5');
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(['sort']);
    expect(answer.body.errors.sort[0]).toContain('more than once');
  });

  it('answers a required query parameter not sent with 400 MISSING_PARAMETER naming it, and a bad one with 422', async () => {
    for (const path of ['/entitlements/check', '/entitlements/check?quantity=2']) {
      const missing = await api.call('GET', path);
      expect(missing.status).toBe(400);
      envelope(missing.body);
      expect(missing.body).toMatchObject({ error: 'bad_request', error_code: 'MISSING_PARAMETER', errors: { feature: ['is required'] } });
      expect(missing.body.message).toBe('The query parameter "feature" is required.');
    }
    const empty = await api.call('GET', '/entitlements/check?feature=');
    expect([empty.status, Object.keys(empty.body.errors)]).toEqual([422, ['feature']]);
    expect((await api.call('GET', '/entitlements/check?feature=api_keys')).status).toBe(200);
  });

  it('answers HEAD on a GET route with its status and headers and no body', async () => {
    const get = await api.call('GET', '/workspaces');
    const head = await api.call('HEAD', '/workspaces');
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('x-request-id')).toBeTruthy();
    expect(head.headers.get('x-ratelimit-limit')).toBe(get.headers.get('x-ratelimit-limit'));
    expect((await fetch(`${api.runner.origin}/health`, { method: 'HEAD' })).status).toBe(200);
    const refused = await api.call('HEAD', '/workspaces', { key: '' });
    expect(refused.status).toBe(401);
    expect(refused.body).toBeUndefined();
  });

  it('answers a missing credential before a malformed body', async () => {
    const answer = await api.call('POST', '/workspaces', { key: '', rawBody: '{"name": ' });
    expect(answer.status).toBe(401);
  });

  it('answers malformed JSON with 400 INVALID_FORMAT and a wrong content type likewise', async () => {
    const broken = await api.call('POST', '/workspaces', { rawBody: '{"name": ' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ error: 'bad_request', error_code: 'INVALID_FORMAT' });
    const form = await api.call('POST', '/workspaces', {
      rawBody: 'name=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(form.body.error_code).toBe('INVALID_FORMAT');
  });

  it('accepts the JSON media type however the header and the type are spelled', async () => {
    // node:http sends header names exactly as written (fetch would lower-case them).
    const post = (name: string, value: string) =>
      new Promise<number>((done, fail) => {
        const body = '{"name":"Spelled"}';
        const url = `${api.runner.baseUrl}/workspaces`;
        const req = request(url, { method: 'POST' }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => {
            const headers = new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
            try {
              assertMatchesContract('POST', url, { status: res.statusCode!, headers, body: text ? JSON.parse(text) : undefined });
              done(res.statusCode!);
            } catch (error) {
              fail(error);
            }
          });
        });
        req.setHeader('Authorization', `Bearer ${api.adminKey}`);
        req.setHeader(name, value);
        req.on('error', fail);
        req.end(body);
      });
    for (const [name, value] of [
      ['Content-type', 'Application/JSON'],
      ['CONTENT-TYPE', 'application/json; charset=utf-8'],
    ] as const) {
      expect(await post(name, value)).toBe(201);
    }
  });

  // Non-object bodies are 400 INVALID_TYPE (below): the body as a whole is of the wrong kind, not a field.
  it('answers wrong field types with 422', async () => {
    for (const body of [{ name: 42 }, { name: 'ok', settings: 'UTC' }]) {
      const answer = await api.call('POST', '/workspaces', { body });
      expect(answer.status).toBe(422);
      envelope(answer.body);
    }
  });

  it('names unknown fields even when they shadow built-in object properties', async () => {
    for (const field of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const answer = await api.call('POST', '/workspaces', { rawBody: `{"name":"ok","${field}":1}` });
      expect(answer.status).toBe(422);
      expect(answer.body.errors[field]).toEqual(['is not a recognised field']);
    }
  });

  it('refuses a huge body with 413 before reading it into a function, saying how much it takes', async () => {
    const answer = await api.call('POST', '/workspaces', { body: { name: 'x'.repeat(300 * 1024) } });
    expect(answer.status).toBe(413);
    envelope(answer.body);
    expect(answer.body.limit).toBe(256 * 1024);
    // Refused before its route is looked up, but after the authorizer counted the request: its rate limit is told.
    expect(answer.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(answer.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it('survives odd path parameters and query strings with a 4xx', async () => {
    for (const path of [
      '/workspaces/%ZZ',
      '/workspaces/%00',
      `/workspaces/${'a'.repeat(2000)}`,
      '/workspaces?page=1&page=x',
      '/workspaces?per_page[]=1',
      '/workspaces/%2F..%2F',
    ]) {
      const answer = await api.call('GET', path);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it('refuses a workspace context that is not a workspace id of yours with 403, however long', async () => {
    for (const named of ['x'.repeat(3000), 'wks_nope', '../etc']) {
      const answer = await api.call('GET', '/api-keys', { headers: { 'X-Workspace-ID': named } });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe('access_denied');
    }
  });

  it('echoes a safe X-Request-ID and replaces an unsafe one', async () => {
    const safe = await api.call('GET', '/workspaces/not-an-id', { headers: { 'X-Request-ID': 'client-req-12345' } });
    expect(safe.headers.get('x-request-id')).toBe('client-req-12345');
    expect(safe.body.request_id).toBe('client-req-12345');
    const unsafe = await api.call('GET', '/workspaces', { headers: { 'X-Request-ID': 'bad id with spaces <script>' } });
    expect(unsafe.headers.get('x-request-id')).not.toContain('<');
  });

  it('answers every success with X-Request-ID too', async () => {
    const answer = await api.call('GET', '/workspaces');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
  });
});
