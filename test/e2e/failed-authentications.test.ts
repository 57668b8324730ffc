import { failedAuthenticationPolicy } from '#core/auth/failed-authentications';
import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

describe('failed authentications over HTTP', () => {
  it('answer 429 with Retry-After in the envelope once an address used up its window; a key verified before keeps working', async () => {
    expect((await api.call('GET', '/workspaces')).status).toBe(200);
    // Wrong secrets with the bootstrap key's prefix, which any member sees in GET /api-keys.
    const wrong = (i: number) => api.adminKey.slice(0, 16) + String(i).padStart(24, 'x');
    for (let i = 0; i < failedAuthenticationPolicy.limit; i++) {
      expect((await api.call('GET', '/workspaces', { key: wrong(i) })).status).toBe(401);
    }
    const throttled = await api.call('GET', '/workspaces', { key: wrong(99) });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ error: 'rate_limit_exceeded', error_code: 'RATE_LIMIT_EXCEEDED', retry_after: expect.any(Number) });
    expect(throttled.headers.get('retry-after')).toBe(String(throttled.body.retry_after));
    expect(throttled.headers.get('www-authenticate')).toBeNull();
    expect((await api.call('GET', '/workspaces')).status).toBe(200);
  });
});
