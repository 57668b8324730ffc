import { maintenanceCacheMs } from '#core/operations/maintenance';
import { runAdmin } from '../support/admin-cli.ts';
import { type ApiAnswer, startTestApi, type TestApi } from '../support/local-api.ts';

/**
 * The operator's maintenance switch, thrown by the admin CLI in another process while the
 * runner serves: every function answers it within the switch's cache period, no restart.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const admin = (args: string[]) => runAdmin(api.runner.tableName, args);

/** Calls until the answer has `status`, for as long as a function may trust its cached switch. */
async function eventually(status: number, call: () => Promise<ApiAnswer>): Promise<ApiAnswer> {
  const deadline = Date.now() + maintenanceCacheMs + 3_000;
  for (;;) {
    const answer = await call();
    if (answer.status === status || Date.now() > deadline) return answer;
    await new Promise((done) => setTimeout(done, 250));
  }
}

describe('maintenance mode', () => {
  it('answers 503 MAINTENANCE_MODE with Retry-After while on, spares /health and the platform admin routes, and ends with off', async () => {
    const on = await admin(['maintenance', 'on', '--retry-after', '120', '--message', 'Upgrading the database.']);
    expect(on).toMatchObject({ status: 0, stdout: expect.stringContaining('Maintenance on since') });
    expect((await admin(['maintenance', 'status'])).stdout).toContain('Retry-After: 120');

    const down = await eventually(503, () => api.call('GET', '/workspaces'));
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('120');
    expect(down.body).toMatchObject({
      error: 'service_unavailable',
      error_code: 'MAINTENANCE_MODE',
      message: 'Upgrading the database.',
      retry_after: 120,
    });
    // Before the credential is looked at, on routes without one too.
    expect((await api.call('GET', '/workspaces', { key: '' })).body.error_code).toBe('MAINTENANCE_MODE');
    expect(
      (await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email: 'a@example.com', password: 'x' } })).status,
    ).toBe(503);

    // The MCP endpoint passes the mcp function's refusal on: a tool call is an isError result carrying the envelope.
    const toolCall = await api.call('POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_workspaces', arguments: {} } },
      headers: { Accept: 'application/json, text/event-stream' },
    });
    expect(toolCall.body.result.isError).toBe(true);
    expect(JSON.parse(toolCall.body.result.content[0].text)).toMatchObject({ error_code: 'MAINTENANCE_MODE' });

    expect((await fetch(`${api.runner.origin}/health`)).status).toBe(200);
    const workspaceId = api.runner.bootstrap!.workspaceId;
    const adminRoute = await api.call('PATCH', `/admin/workspaces/${workspaceId}`, { body: { tier: 'enterprise' } });
    expect(adminRoute.status).toBe(200);

    expect(await admin(['maintenance', 'off'])).toMatchObject({ status: 0 });
    expect((await admin(['maintenance', 'status'])).stdout).toContain('Maintenance off.');
    expect((await eventually(200, () => api.call('GET', '/workspaces'))).status).toBe(200);
  }, 60_000);

  it('refuses a --retry-after that is not a number of seconds, as a usage error', async () => {
    const run = await admin(['maintenance', 'on', '--retry-after', 'soon']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--retry-after must be a whole number of seconds');
  });
});
