import { startTestApi, type TestApi } from '../support/local-api.ts';

// Off whatever the shell says; config() reads it when the runner starts.
process.env.OAUTH_ENABLED = '0';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

describe('OAuth switched off', () => {
  it('answers 404 ENDPOINT_NOT_FOUND on both endpoints, signed in or not', async () => {
    const authorize = await api.call('GET', `${api.runner.origin}/oauth/authorize?response_type=code&client_id=client_x`, { key: '' });
    const token = await api.call('POST', `${api.runner.origin}/oauth/token`, {
      key: '',
      rawBody: 'grant_type=client_credentials',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    for (const answer of [authorize, token]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error_code: 'ENDPOINT_NOT_FOUND' });
    }
  });

  it('refuses a bearer that is not an API key or user token with 401', async () => {
    expect((await api.call('GET', '/workspaces', { key: 'a'.repeat(64) })).status).toBe(401);
  });
});
