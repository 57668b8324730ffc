import { startTestApi, type TestApi } from '../support/local-api.ts';

// Off whatever the shell says; config() reads it when the runner starts.
process.env.DOCUMENTATION_ENABLED = '0';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

describe('documentation switched off', () => {
  it.each([
    '/api/docs',
    '/api/docs/scalar',
    '/api/docs/redoc',
    '/api/docs/login',
    '/api/openapi.json',
    '/api/openapi.yaml',
    '/api/llms.txt',
  ])('%s answers 404 ENDPOINT_NOT_FOUND', async (path) => {
    const answer = await fetch(`${api.runner.origin}${path}`, { redirect: 'manual' });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error_code: 'ENDPOINT_NOT_FOUND', requested_path: path });
  });
});
