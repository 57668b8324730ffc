import { startTestApi, type TestApi } from '../support/local-api.ts';

const app = 'https://app.example.com';

// A file of its own: configuration is read once per process, and cors.test.ts turns CORS on.
describe('CORS by default', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ over: 'http' });
  });
  afterAll(() => api.stop());

  it('is off: no grant, no Vary, and a preflight is refused', async () => {
    const answer = await api.call('GET', '/workspaces', { headers: { Origin: app } });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBeNull();
    const preflight = await fetch(`${api.runner.baseUrl}/workspaces`, {
      method: 'OPTIONS',
      headers: { Origin: app, 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(403);
  });

  it('answers a plain OPTIONS, not a preflight, with 405 and Allow', async () => {
    const answer = await fetch(`${api.runner.baseUrl}/workspaces`, { method: 'OPTIONS' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
