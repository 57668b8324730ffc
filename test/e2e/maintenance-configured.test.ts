import { startTestApi, type TestApi } from '../support/local-api.ts';

// A file of its own: configuration is read once per process.
describe('MAINTENANCE_MODE=1, the deploy-time switch', () => {
  let api: TestApi;
  beforeAll(async () => {
    process.env.MAINTENANCE_MODE = '1';
    process.env.MAINTENANCE_RETRY_AFTER = '600';
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.stop();
    delete process.env.MAINTENANCE_MODE;
    delete process.env.MAINTENANCE_RETRY_AFTER;
  });

  it('answers every request 503 MAINTENANCE_MODE with its Retry-After, but the platform admin routes', async () => {
    const down = await api.call('GET', '/workspaces');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('600');
    expect(down.body).toMatchObject({ error_code: 'MAINTENANCE_MODE', retry_after: 600 });
    const workspaceId = api.runner.bootstrap!.workspaceId;
    expect((await api.call('PATCH', `/admin/workspaces/${workspaceId}`, { body: { billing_status: 'paid' } })).status).toBe(200);
  });
});
