import { startTestApi, type TestApi } from '../support/local-api.ts';

// A file of its own: configuration is read once per process.
describe('a deprecated version (API_DEPRECATED_AT, API_SUNSET_AT, API_DEPRECATION_LINK)', () => {
  let api: TestApi;
  beforeAll(async () => {
    process.env.API_DEPRECATED_AT = '2026-06-01';
    process.env.API_SUNSET_AT = '2027-06-01T00:00:00Z';
    process.env.API_DEPRECATION_LINK = 'https://example.com/deprecations/v1';
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.stop();
    for (const name of ['API_DEPRECATED_AT', 'API_SUNSET_AT', 'API_DEPRECATION_LINK']) delete process.env[name];
  });

  it('carries Deprecation, Sunset and Link on every answer under the prefix, refusals and unknown paths included', async () => {
    for (const [path, key, status] of [
      ['/workspaces', undefined, 200],
      ['/workspaces', '', 401],
      ['/nothing-here', undefined, 404],
    ] as const) {
      const answer = await api.call('GET', path, { key });
      expect(answer.status).toBe(status);
      expect(answer.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 5, 1) / 1000}`);
      expect(answer.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
      expect(answer.headers.get('link')).toBe(
        '<https://example.com/deprecations/v1>; rel="deprecation", <https://example.com/deprecations/v1>; rel="sunset"',
      );
    }
  });

  it('leaves them off what is outside the version: the root routes and other versions', async () => {
    const login = await api.call('POST', `${api.runner.origin}/login`, {
      key: '',
      body: { email: 'x@example.com', password: 'wrong one' },
    });
    expect(login.headers.get('deprecation')).toBeNull();
    const other = await api.call('GET', `${api.runner.origin}/api/v2/workspaces`);
    expect(other.status).toBe(404);
    expect(other.headers.get('deprecation')).toBeNull();
  });
});
