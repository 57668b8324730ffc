import { failedAuthenticationPolicy } from '#core/credentials/failed-authentications';
import { registerVerified } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, login } from '../support/sessions.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

describe('failed authentications over HTTP', () => {
  it("answer 429 with Retry-After for the guessed key's prefix only; the neighbours on the same address keep working", async () => {
    // A teammate's key, made now and never used yet, and another user's account: both on this address too.
    const neighbour = await api.call('POST', '/api-keys', { body: { name: 'neighbour', scopes: ['workspaces:read'] } });
    expect(neighbour.status).toBe(201);
    await registerVerified(api, { name: 'Next Door', email: 'next-door@example.com', password: 'next door password' });
    expect((await api.call('GET', '/workspaces')).status).toBe(200);

    // Wrong secrets with the bootstrap key's prefix, which any member sees in GET /api-keys.
    const wrong = (i: number) => api.adminKey.slice(0, 16) + String(i).padStart(24, 'x');
    for (let i = 0; i < failedAuthenticationPolicy.perPrefix.limit; i++) {
      expect((await api.call('GET', '/workspaces', { key: wrong(i) })).status).toBe(401);
    }
    const throttled = await api.call('GET', '/workspaces', { key: wrong(99) });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({
      error: 'rate_limit_exceeded',
      error_code: 'RATE_LIMIT_EXCEEDED',
      retry_after: expect.any(Number),
    });
    expect(throttled.body.message).toContain(api.adminKey.slice(0, 16));
    expect(throttled.headers.get('retry-after')).toBe(String(throttled.body.retry_after));
    expect(throttled.headers.get('www-authenticate')).toBeNull();

    expect((await api.call('GET', '/workspaces')).status).toBe(200);
    expect((await api.call('GET', '/workspaces', { key: neighbour.body.data.key })).status).toBe(200);
    const { session } = await login(api, 'next-door@example.com', 'next door password');
    expect((await api.call('GET', '/user', as(session))).status).toBe(200);
  });
});
