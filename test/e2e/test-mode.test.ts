import type { Route } from '#core/http/route-types';
import { routes } from '#routes';
import { startTestApi, type TestApi } from '../support/local-api.ts';

/**
 * Test keys do not affect production data (the spec; docs/decisions.md, Test mode): a `sk_test_`
 * key changes only records that carry the environment, and every other change, to a
 * workspace, a membership, an invitation, an account or a live key, is 403 before anything
 * is read. The walk covers every route, so a new route that changes live data is refused
 * to test keys unless it declares that it keeps the environments apart.
 */

// A local endpoint URL (no name resolves here); nothing is sent to it.
process.env.WEBHOOK_ALLOW_INSECURE = '1';

let api: TestApi;
let testKey: string;
let workspaceId: string;
beforeAll(async () => {
  api = await startTestApi();
  workspaceId = api.runner.bootstrap!.workspaceId;
  const created = await api.call('POST', '/api-keys', { body: { name: 'sandbox', environment: 'test', scopes: ['*'] } });
  expect(created.status).toBe(201);
  testKey = created.body.data.key;
});
afterAll(() => api.stop());

const refusesTestKeys = (route: Route) =>
  route.auth === 'credential' &&
  route.method !== 'GET' &&
  !route.keepsEnvironmentsApart &&
  (!route.credentials || route.credentials.includes('api_key'));
const someId = 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const filled = (route: Route) => route.path.replace(/\{[^}]+\}/g, (name) => (name === '{user_id}' ? '1' : someId));

describe('a test key', () => {
  it.each((routes as readonly Route[]).filter(refusesTestKeys).map((route) => [`${route.method} ${route.path}`, route] as const))(
    'is refused %s, which changes live data, with 403 saying why',
    async (_name, route) => {
      const answer = await api.call(route.method, filled(route), { key: testKey, body: {} });
      expect([answer.status, answer.body.error, answer.body.error_code]).toEqual([403, 'access_denied', 'ACCESS_DENIED']);
      expect(answer.body.message).toMatch(/^Test keys cannot change live data/);
    },
  );

  it('leaves the live workspace, its keys and its members as they were', async () => {
    const before = (await api.call('GET', `/workspaces/${workspaceId}`)).body.data;
    expect((await api.call('PATCH', `/workspaces/${workspaceId}`, { key: testKey, body: { name: 'Renamed by a test key' } })).status).toBe(
      403,
    );
    expect(
      (
        await api.call(
          'DELETE',
          `/api-keys/${(await api.call('GET', '/api-keys')).body.data.find((k: { environment: string }) => k.environment === 'live').id}`,
          { key: testKey },
        )
      ).status,
    ).toBe(403);
    expect((await api.call('POST', '/users', { key: testKey, body: { email: 'nobody@example.com' } })).status).toBe(403);
    expect((await api.call('GET', `/workspaces/${workspaceId}`)).body.data).toEqual(before);
    expect((await api.call('GET', '/workspaces')).status).toBe(200);
    // A live key's state is none of a test key's business: 403 whether it is active or rotated already.
    const live = (await api.call('POST', '/api-keys', { body: { name: 'live one', scopes: ['workspaces:read'] } })).body.data;
    expect((await api.call('POST', `/api-keys/${live.id}/rotate`, { key: testKey, body: {} })).status).toBe(403);
    expect((await api.call('POST', `/api-keys/${live.id}/rotate`, { body: { grace_period_hours: 1 } })).status).toBe(200);
    const again = await api.call('POST', `/api-keys/${live.id}/rotate`, { key: testKey, body: {} });
    expect([again.status, again.body.message]).toEqual([403, 'A test credential cannot rotate live keys.']);
  });

  it('changes test records: its own test keys, test webhook endpoints, test usage; and reads its workspace and account', async () => {
    const key = await api.call('POST', '/api-keys', { key: testKey, body: { name: 'another test key' } });
    expect([key.status, key.body.data.environment]).toEqual([201, 'test']);
    expect((await api.call('POST', `/api-keys/${key.body.data.id}/rotate`, { key: testKey, body: { grace_period_hours: 0 } })).status).toBe(
      200,
    );
    const endpoint = await api.call('POST', '/webhooks', { key: testKey, body: { url: 'http://127.0.0.1:9/hook', events: ['api_key.*'] } });
    expect([endpoint.status, endpoint.body.data.environment]).toEqual([201, 'test']);
    expect((await api.call('DELETE', `/webhooks/${endpoint.body.data.id}`, { key: testKey })).status).toBe(204);
    expect(
      (await api.call('POST', '/entitlements/usage', { key: testKey, body: { feature: 'storage', quantity: 10 } })).body.recorded,
    ).toBe(true);
    expect((await api.call('GET', `/workspaces/${workspaceId}`, { key: testKey })).status).toBe(200);
    expect((await api.call('GET', '/user', { key: testKey })).status).toBe(200);
  });
});
