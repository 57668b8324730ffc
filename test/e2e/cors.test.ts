import { startTestApi, type TestApi } from '../support/local-api.ts';

const app = 'https://app.example.com';

describe('CORS with CORS_ALLOWED_ORIGINS set', () => {
  let api: TestApi;
  beforeAll(async () => {
    process.env.CORS_ALLOWED_ORIGINS = `${app}, https://admin.example.com`;
    api = await startTestApi({ over: 'http' });
  });
  afterAll(async () => {
    await api.stop();
    delete process.env.CORS_ALLOWED_ORIGINS;
  });

  it('grants an allowed origin on every answer, errors included, and exposes the rate-limit headers', async () => {
    for (const [path, key] of [
      ['/workspaces', undefined],
      ['/workspaces', ''],
    ] as const) {
      const answer = await api.call('GET', path, { key, headers: { Origin: app } });
      expect(answer.headers.get('access-control-allow-origin')).toBe(app);
      expect(answer.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
      expect(answer.headers.get('vary')).toBe('Origin');
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('grants nothing to another origin', async () => {
    const answer = await api.call('GET', '/workspaces', { headers: { Origin: 'https://evil.example.net' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBe('Origin');
  });

  it('answers a preflight from an allowed origin with the methods of the path', async () => {
    const answer = await fetch(`${api.runner.baseUrl}/workspaces/wks_01J00000000000000000000000`, {
      method: 'OPTIONS',
      headers: { Origin: app, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'authorization, content-type' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(app);
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, HEAD, PATCH, DELETE');
    expect(answer.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses a preflight from another origin with 403 saying why', async () => {
    const answer = await fetch(`${api.runner.baseUrl}/workspaces`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example.net', 'Access-Control-Request-Method': 'POST' },
    });
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { message: string };
    expect(body).toMatchObject({ error: 'access_denied', error_code: 'ACCESS_DENIED' });
    expect(body.message).toContain('CORS_ALLOWED_ORIGINS');
  });
});
