import { randomUUID } from 'node:crypto';
import { registerOAuthClient } from '#core/oauth/clients';
import type { Deps } from '#core/ports/deps';
import { startTestApiWithDeps, type TestApi } from '../support/local-api.ts';

// Read by config() on first use, which is when the runner starts (beforeAll), not at import.
process.env.OAUTH_ENABLED = '1';

/**
 * Webhook endpoints over HTTP, through the local runner. Targets are public IP literals
 * (this machine resolves no public names) subscribed to an event nothing here emits, so
 * that no delivery is ever attempted.
 */

let api: TestApi & { deps: Deps };
let testKey: string;
beforeAll(async () => {
  api = await startTestApiWithDeps();
  const created = await api.call('POST', '/api-keys', { body: { name: 'sandbox', environment: 'test', scopes: ['*'] } });
  testKey = created.body.data.key;
});
afterAll(() => api.stop());

const target = 'https://93.184.216.34/hooks';
const quiet = ['workspace.deleted'];
const createBody = (extra: Record<string, unknown> = {}) => ({ url: target, events: quiet, ...extra });

async function createEndpoint(options: { key?: string; headers?: Record<string, string>; body?: Record<string, unknown> } = {}) {
  const answer = await api.call('POST', '/webhooks', { key: options.key, headers: options.headers, body: createBody(options.body) });
  if (answer.status !== 201) throw new Error(`creating an endpoint answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** The webhook events the outbox wrote for a workspace, oldest first. */
async function eventsOf(workspaceId: string) {
  const { data } = await api.deps.db.entities.webhookEvent.scan.go({ pages: 'all' });
  return data
    .filter((event) => event.workspaceId === workspaceId && event.type.startsWith('webhook.'))
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((event) => ({ type: event.type, environment: event.environment, envelope: JSON.parse(event.body) }));
}

async function keyWith(scopes: string[]) {
  const created = await api.call('POST', '/api-keys', { body: { name: `scoped ${scopes.join(' ')}`, scopes } });
  expect(created.status).toBe(201);
  return created.body.data.key as string;
}

describe('webhook endpoints over HTTP', () => {
  it('creates, reads, lists, changes and deletes an endpoint, the secret shown once, each change an event', async () => {
    const workspaceId = api.runner.bootstrap!.workspaceId;
    const created = await api.call('POST', '/webhooks', { body: createBody({ events: ['api_key.*', 'workspace.updated'] }) });
    expect(created.status).toBe(201);
    expect(created.body.message).toMatch(/secret/);
    const { secret, ...view } = created.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(view).toMatchObject({
      url: target,
      events: ['api_key.*', 'workspace.updated'],
      is_active: true,
      environment: 'live',
      workspace_id: workspaceId,
    });

    const read = await api.call('GET', `/webhooks/${view.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(view);
    const listed = await api.call('GET', '/webhooks');
    expect(listed.body.data.map((w: { id: string }) => w.id)).toContain(view.id);
    expect(JSON.stringify([read.body, listed.body])).not.toContain(secret);

    const changed = await api.call('PATCH', `/webhooks/wh_${view.id.slice(3).toLowerCase()}`, {
      body: { events: ['*'], is_active: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: view.id, events: ['*'], is_active: false });

    expect((await api.call('DELETE', `/webhooks/${view.id}`)).status).toBe(204);
    expect((await api.call('GET', `/webhooks/${view.id}`)).status).toBe(404);

    const events = (await eventsOf(workspaceId)).filter((e) => e.envelope.data.id === view.id);
    expect(events.map((e) => [e.type, e.environment])).toEqual([
      ['webhook.created', 'live'],
      ['webhook.updated', 'live'],
      ['webhook.deleted', 'live'],
    ]);
    expect(events[0]!.envelope).toMatchObject({ type: 'webhook.created', workspace_id: workspaceId, data: view });
    expect(events[1]!.envelope.data).toEqual(changed.body.data);
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('pages the list with per_page and the cursor in links.next', async () => {
    const other = await api.call('POST', '/workspaces', { body: { name: 'Paged hooks' } });
    await api.call('PATCH', `/admin/workspaces/${other.body.data.id}`, { body: { tier: 'pro' } });
    const headers = { 'X-Workspace-ID': other.body.data.id };
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await createEndpoint({ headers, body: { url: `${target}/${i}` } })).id);
    const first = await api.call('GET', '/webhooks?per_page=2', { headers });
    expect(first.body.data.map((w: { id: string }) => w.id)).toEqual(made.slice(0, 2));
    expect(first.body.meta).toMatchObject({ total: 3, last_page: 2 });
    const next = await api.call('GET', first.body.links.next, { headers });
    expect(next.body.data.map((w: { id: string }) => w.id)).toEqual(made.slice(2));
    expect(next.body.links.next).toBeNull();
  });

  it('keeps test endpoints apart: a test key never sees or changes a live endpoint, nor a live key a test one', async () => {
    const live = await createEndpoint();
    const test = await createEndpoint({ key: testKey });
    expect(test.environment).toBe('test');
    for (const [key, foreign] of [
      [testKey, live.id],
      [api.adminKey, test.id],
    ] as const) {
      for (const [method, path, body] of [
        ['GET', `/webhooks/${foreign}`, undefined],
        ['PATCH', `/webhooks/${foreign}`, { is_active: false }],
        ['POST', `/webhooks/${foreign}/rotate-secret`, {}],
        ['DELETE', `/webhooks/${foreign}`, undefined],
      ] as const) {
        const answer = await api.call(method, path, { key, body });
        expect({ method, path, status: answer.status, code: answer.body?.error_code }).toEqual({
          method,
          path,
          status: 404,
          code: 'RESOURCE_NOT_FOUND',
        });
      }
    }
    const testList = (await api.call('GET', '/webhooks?per_page=100', { key: testKey })).body;
    expect(testList.data.map((w: { id: string }) => w.id)).toEqual([test.id]);
    expect(testList.meta.total).toBe(1);
    const liveList = (await api.call('GET', '/webhooks?per_page=100')).body.data.map((w: { id: string }) => w.id);
    expect(liveList).toContain(live.id);
    expect(liveList).not.toContain(test.id);
    const events = await eventsOf(api.runner.bootstrap!.workspaceId);
    expect(events.find((e) => e.envelope.data.id === test.id)).toMatchObject({ type: 'webhook.created', environment: 'test' });
    expect((await api.call('GET', `/webhooks/${live.id}`)).body.data.is_active).toBe(true);
  });

  it('rotates the secret: a new one shown once, the old one signing until the grace period ends', async () => {
    const created = await createEndpoint();
    const before = Date.now();
    const rotated = await api.call('POST', `/webhooks/${created.id}/rotate-secret`, { body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.secret);
    const graceEnds = Date.parse(rotated.body.data.previous_secret_expires_at);
    expect(graceEnds).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1_000);
    expect(graceEnds).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    const shown = await api.call('GET', `/webhooks/${created.id}`);
    expect(JSON.stringify(shown.body)).not.toContain(rotated.body.data.secret);
    const now = await api.call('POST', `/webhooks/${created.id}/rotate-secret`, { body: { grace_period_hours: 0 } });
    expect(now.body.data.previous_secret_expires_at).toBeNull();
    const types = (await eventsOf(api.runner.bootstrap!.workspaceId)).filter((e) => e.envelope.data.id === created.id).map((e) => e.type);
    expect(types).toEqual(['webhook.created', 'webhook.secret_rotated', 'webhook.secret_rotated']);
  });

  it('replays a create with the same Idempotency-Key, making one endpoint', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await api.call('POST', '/webhooks', { headers, body: createBody() });
    const again = await api.call('POST', '/webhooks', { headers, body: createBody() });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});

describe('the URL policy over HTTP', () => {
  const forbidden = [
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://0177.0.0.1/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://10.0.0.1/hook',
    'https://172.16.5.4/hook',
    'https://192.168.0.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fe80::1]/hook',
    'https://[fd00:ec2::254]/hook',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://[64:ff9b::7f00:1]/hook',
    'https://nowhere.invalid/hook',
    'https://user:pass@93.184.216.34/hook',
    'http://93.184.216.34/hook',
    'not a url',
  ];

  it.each(forbidden)('refuses %s at creation and on update with 422 naming url', async (url) => {
    const created = await api.call('POST', '/webhooks', { body: createBody({ url }) });
    expect({ status: created.status, fields: Object.keys(created.body.errors ?? {}) }).toEqual({ status: 422, fields: ['url'] });
    const endpoint = await createEndpoint();
    const updated = await api.call('PATCH', `/webhooks/${endpoint.id}`, { body: { url } });
    expect({ status: updated.status, fields: Object.keys(updated.body.errors ?? {}) }).toEqual({ status: 422, fields: ['url'] });
    expect((await api.call('GET', `/webhooks/${endpoint.id}`)).body.data.url).toBe(target);
    await api.call('DELETE', `/webhooks/${endpoint.id}`);
  });
});

describe('invalid input', () => {
  it.each([
    ['no events', { url: target }, 'events'],
    ['empty events', { url: target, events: [] }, 'events'],
    ['too many events', { url: target, events: Array.from({ length: 101 }, () => '*') }, 'events'],
    ['events not a list', { url: target, events: 'api_key.created' }, 'events'],
    ['no url', { events: quiet }, 'url'],
    ['a url that is no string', { url: 42, events: quiet }, 'url'],
    ['an overlong url', { url: `${target}/${'x'.repeat(2100)}`, events: quiet }, 'url'],
    ['a secret without whsec_', { url: target, events: quiet, secret: Buffer.alloc(32).toString('base64') }, 'secret'],
    ['a secret too short', { url: target, events: quiet, secret: `whsec_${Buffer.alloc(16).toString('base64')}` }, 'secret'],
    ['an unknown field', { url: target, events: quiet, enabled: true }, 'enabled'],
  ])('refuses %s with 422 on that field', async (_what, body, field) => {
    const answer = await api.call('POST', '/webhooks', { body });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors).some((key) => key === field || key.startsWith(`${field}.`))).toBe(true);
  });

  it('names each unknown event type it refuses', async () => {
    const answer = await api.call('POST', '/webhooks', {
      body: { url: target, events: ['api_key.created', 'rockets.launched', 'rockets.*', 'webhook.test'] },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors['events.1'].join()).toContain('"rockets.launched"');
    expect(answer.body.errors['events.2'].join()).toContain('"rockets.*"');
    expect(answer.body.errors['events.3'].join()).toContain('"webhook.test"');
    expect(answer.body.errors['events.0']).toBeUndefined();
  });

  it('refuses bad changes, bad rotations and bad ids with 4xx, never 500', async () => {
    const endpoint = await createEndpoint();
    const attempts: [string, string, unknown][] = [
      ['PATCH', `/webhooks/${endpoint.id}`, {}],
      ['PATCH', `/webhooks/${endpoint.id}`, { is_active: 'yes' }],
      ['PATCH', `/webhooks/${endpoint.id}`, { events: ['nope'] }],
      ['PATCH', `/webhooks/${endpoint.id}`, { secret: 'whsec_x' }],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`, { grace_period_hours: -1 }],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`, { grace_period_hours: 169 }],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`, { grace_period_hours: 1.5 }],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`, { grace_period_hours: '24' }],
      ['GET', '/webhooks/wh_nope', undefined],
      ['DELETE', '/webhooks/key_01ARZ3NDEKTSV4RRFFQ69G5FAV', undefined],
      ['GET', '/webhooks?is_active=maybe', undefined],
      ['GET', '/webhooks?sort=secret', undefined],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await api.call(method, path, { body });
      expect({ method, path, body, status: answer.status }).toEqual({ method, path, body, status: 422 });
    }
    const malformed = await api.call('POST', '/webhooks', { rawBody: '{"url":' });
    expect(malformed.status).toBe(400);
    expect((await api.call('GET', '/webhooks/wh_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect((await api.call('GET', `/webhooks/${endpoint.id}`)).body.data).toMatchObject({ is_active: true, events: quiet });
  });
});

describe('the webhooks limit over HTTP', () => {
  it('gives a free workspace two endpoints, then answers 403 feature_limit_reached', async () => {
    const free = await api.call('POST', '/workspaces', { body: { name: 'Free hooks' } });
    expect(free.body.data.tier).toBe('free');
    const headers = { 'X-Workspace-ID': free.body.data.id };
    await createEndpoint({ headers });
    const second = await createEndpoint({ headers });
    const third = await api.call('POST', '/webhooks', { headers, body: createBody() });
    expect(third.status).toBe(403);
    expect(third.body).toMatchObject({ error: 'feature_limit_reached', error_code: 'ENTITLEMENT_DENIED', feature: 'webhooks', limit: 2 });
    // The test environment has a limit of its own.
    await createEndpoint({ key: testKey, headers });
    expect((await api.call('DELETE', `/webhooks/${second.id}`, { headers })).status).toBe(204);
    await createEndpoint({ headers });
  });
});

describe('webhook scopes', () => {
  it('reads with webhooks:read, writes with webhooks:write, deletes with webhooks:delete; webhooks:manage does all', async () => {
    const endpoint = await createEndpoint();
    const reader = await keyWith(['webhooks:read']);
    const writer = await keyWith(['webhooks:read', 'webhooks:write']);
    const manager = await keyWith(['webhooks:manage']);
    const outsider = await keyWith(['api-keys:read']);

    const refused = async (key: string, method: string, path: string, body: unknown, scope: string) => {
      const answer = await api.call(method, path, { key, body });
      expect({ method, path, status: answer.status, code: answer.body.error_code, scope: answer.body.required_scope }).toEqual({
        method,
        path,
        status: 403,
        code: 'INSUFFICIENT_PERMISSIONS',
        scope,
      });
    };
    await refused(outsider, 'GET', '/webhooks', undefined, 'webhooks:read');
    await refused(outsider, 'GET', `/webhooks/${endpoint.id}`, undefined, 'webhooks:read');
    expect((await api.call('GET', `/webhooks/${endpoint.id}`, { key: reader })).status).toBe(200);
    await refused(reader, 'POST', '/webhooks', createBody(), 'webhooks:write');
    await refused(reader, 'PATCH', `/webhooks/${endpoint.id}`, { is_active: false }, 'webhooks:write');
    await refused(reader, 'POST', `/webhooks/${endpoint.id}/rotate-secret`, {}, 'webhooks:write');
    await refused(writer, 'DELETE', `/webhooks/${endpoint.id}`, undefined, 'webhooks:delete');
    expect((await api.call('PATCH', `/webhooks/${endpoint.id}`, { key: writer, body: { is_active: false } })).status).toBe(200);
    expect((await api.call('POST', '/webhooks', { key: manager, body: createBody({ events: ['webhook.*'] }) })).status).toBe(201);
    expect((await api.call('DELETE', `/webhooks/${endpoint.id}`, { key: manager })).status).toBe(204);
  });
});

describe('subscriptions need the read scopes of their resources', () => {
  const refusal = (answer: { status: number; body: Record<string, unknown> }) => ({
    status: answer.status,
    code: answer.body.error_code,
    scope: answer.body.required_scope,
  });

  it('refuses webhooks:write alone every resource but webhooks, naming each read scope it lacks', async () => {
    const writer = await keyWith(['webhooks:write']);
    const everything = await api.call('POST', '/webhooks', { key: writer, body: createBody({ events: ['*'] }) });
    expect(refusal(everything)).toEqual({
      status: 403,
      code: 'INSUFFICIENT_PERMISSIONS',
      scope: 'workspaces:read api-keys:read users:read namespaces:read webhooks:read posts:read categories:read seo:read',
    });
    expect(everything.body.message).toContain('"api-keys:read", "users:read"');
    const keys = await api.call('POST', '/webhooks', { key: writer, body: createBody({ events: ['api_key.created'] }) });
    expect(refusal(keys)).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS', scope: 'api-keys:read' });
    const never = await api.call('POST', '/webhooks', { key: writer, body: createBody({ events: ['link.clicked'] }) });
    expect(never.status).toBe(422);
    expect(never.body.errors['events.0'][0]).toContain('"link.clicked" is never sent: this service has no tracked links');
  });

  it('accepts what the credential can read: a resource by its scope, everything by *:read', async () => {
    const keyReader = await keyWith(['webhooks:write', 'api-keys:read']);
    expect((await api.call('POST', '/webhooks', { key: keyReader, body: createBody({ events: ['api_key.*'] }) })).status).toBe(201);
    const people = await api.call('POST', '/webhooks', {
      key: keyReader,
      body: createBody({ events: ['api_key.*', 'member.added', 'invitation.*'] }),
    });
    expect(refusal(people)).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS', scope: 'users:read' });
    const reader = await keyWith(['webhooks:write', '*:read']);
    expect((await api.call('POST', '/webhooks', { key: reader, body: createBody({ events: ['*', 'member.added'] }) })).status).toBe(201);
  });

  it('checks a PATCH of events, and of url (which decides who receives the events), but not of is_active alone', async () => {
    const everything = await createEndpoint({ body: { events: ['*'] } });
    const writer = await keyWith(['webhooks:write', 'webhooks:read']);
    const path = `/webhooks/${everything.id}`;
    expect(refusal(await api.call('PATCH', path, { key: writer, body: { url: `${target}/mine` } }))).toMatchObject({
      status: 403,
      code: 'INSUFFICIENT_PERMISSIONS',
    });
    expect(refusal(await api.call('PATCH', path, { key: writer, body: { events: ['user.*'] } }))).toEqual({
      status: 403,
      code: 'INSUFFICIENT_PERMISSIONS',
      scope: 'users:read',
    });
    expect((await api.call('GET', path)).body.data).toMatchObject({ url: target, events: ['*'] });
    expect((await api.call('PATCH', path, { key: writer, body: { is_active: false } })).status).toBe(200);
    expect((await api.call('PATCH', path, { key: writer, body: { events: ['webhook.*'], url: `${target}/mine` } })).status).toBe(200);
  });
});

describe('rotating a secret needs the read scopes of the events it verifies', () => {
  it("refuses webhooks:* alone the secret of a `*` endpoint, even by a wider credential's Idempotency-Key; it rotates what it can read", async () => {
    const everything = await createEndpoint({ body: { events: ['*'] } });
    const ownHooks = await createEndpoint({ body: { events: ['webhook.*'] } });
    const narrow = await keyWith(['webhooks:*']);
    const path = `/webhooks/${everything.id}/rotate-secret`;
    const refused = await api.call('POST', path, { key: narrow, body: { grace_period_hours: 0 } });
    expect({ status: refused.status, code: refused.body.error_code, scope: refused.body.required_scope }).toEqual({
      status: 403,
      code: 'INSUFFICIENT_PERMISSIONS',
      scope: 'workspaces:read api-keys:read users:read namespaces:read posts:read categories:read seo:read',
    });
    expect(refused.body.message).toContain('"api-keys:read"');

    // The same Idempotency-Key as a wider credential's rotation is another request of the narrow key's own: never the stored answer.
    const headers = { 'Idempotency-Key': randomUUID() };
    const rotated = await api.call('POST', path, { headers, body: {} });
    expect(rotated.status).toBe(200);
    const replayed = await api.call('POST', path, { key: narrow, headers, body: {} });
    expect({ status: replayed.status, code: replayed.body.error_code, replayed: replayed.headers.get('idempotent-replayed') }).toEqual({
      status: 403,
      code: 'INSUFFICIENT_PERMISSIONS',
      replayed: null,
    });
    const again = await api.call('POST', path, { key: narrow, headers, body: {} });
    expect({ status: again.status, replayed: again.headers.get('idempotent-replayed') }).toEqual({ status: 403, replayed: 'true' });
    expect(JSON.stringify([refused.body, replayed.body, again.body])).not.toContain(rotated.body.data.secret);
    expect(JSON.stringify([refused.body, replayed.body, again.body])).not.toContain('whsec_');

    const own = await api.call('POST', `/webhooks/${ownHooks.id}/rotate-secret`, { key: narrow, body: {} });
    expect(own.status).toBe(200);
    expect(own.body.data.secret).toMatch(/^whsec_/);
  });
});

describe('OAuth access tokens and webhook endpoints', () => {
  it('cannot create an endpoint, point one elsewhere or take its secret, which would outlive the grant (403 saying why); they read, pause and delete', async () => {
    const { userId, workspaceId } = api.runner.bootstrap!;
    const client = await registerOAuthClient(api.deps, {
      name: 'Integration',
      ownerUserId: userId,
      workspaceId,
      redirectUris: [],
      grants: ['client_credentials'],
      scopes: ['*'],
      confidential: true,
    });
    const issued = await api.call('POST', `${api.runner.origin}/oauth/token`, {
      key: '',
      rawBody: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret!,
        scope: '*',
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(issued.status).toBe(200);
    const token = issued.body.access_token as string;
    const endpoint = await createEndpoint();

    for (const [method, path, body] of [
      ['POST', '/webhooks', createBody()],
      ['PATCH', `/webhooks/${endpoint.id}`, { url: `${target}/the-clients` }],
      ['PATCH', `/webhooks/${endpoint.id}`, { events: ['*'] }],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`, {}],
    ] as const) {
      const refused = await api.call(method, path, { key: token, body });
      expect({ method, path, status: refused.status, error: refused.body.error, code: refused.body.error_code }).toEqual({
        method,
        path,
        status: 403,
        error: 'access_denied',
        code: 'ACCESS_DENIED',
      });
      expect(refused.body.message).toMatch(/^An OAuth access token cannot .+ \(an endpoint and its secret outlive the token\)/);
    }
    expect((await api.call('GET', `/webhooks/${endpoint.id}`, { key: token })).body.data).toMatchObject({ url: target, events: quiet });
    expect((await api.call('PATCH', `/webhooks/${endpoint.id}`, { key: token, body: { is_active: false } })).status).toBe(200);
    expect((await api.call('DELETE', `/webhooks/${endpoint.id}`, { key: token })).status).toBe(204);
  });
});
