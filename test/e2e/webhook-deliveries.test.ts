import { retryLadderSeconds } from '#core/webhooks/ladder';
import { joinAsMember } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as } from '../support/sessions.ts';
import { type ReceivedWebhook, startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';

// Receivers on 127.0.0.1 over http, and the whole ladder (about 26.6 hours) in under 10 seconds.
const retryScale = 0.0001;
process.env.WEBHOOK_ALLOW_INSECURE = '1';
process.env.WEBHOOK_RETRY_SCALE = String(retryScale);

let api: TestApi;
let receiver: WebhookReceiver;
beforeAll(async () => {
  [api, receiver] = await Promise.all([startTestApi(), startWebhookReceiver()]);
});
afterAll(() => Promise.all([api.stop(), receiver.close()]));

interface Endpoint {
  id: string;
  secret: string;
}

async function subscribe(path: string, events: string[], key?: string): Promise<Endpoint> {
  const created = await api.call('POST', '/webhooks', { key, body: { url: receiver.origin + path, events } });
  if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data;
}

const to = (path: string) => (hook: ReceivedWebhook) => hook.path === path;
const eventsAt = (path: string, secret: string) => receiver.received.filter(to(path)).map((hook) => verifyWebhook(hook, secret));

async function deliveriesOf(endpoint: Endpoint, key?: string) {
  const listed = await api.call('GET', `/webhooks/${endpoint.id}/deliveries`, { key });
  expect(listed.status).toBe(200);
  return listed.body.data as Array<Record<string, any>>;
}

/** The delivery of the event a hook carried, once it has left `pending` and `retrying`, read with the single-delivery route. */
async function endedDeliveryOf(endpoint: Endpoint, hook: ReceivedWebhook, key?: string) {
  const eventId = hook.headers['x-webhook-id'];
  const listed = (await deliveriesOf(endpoint, key)).find((d) => d.event_id === eventId)!;
  for (let i = 0; i < 100; i++) {
    const read = await api.call('GET', `/webhooks/${endpoint.id}/deliveries/${listed.id}`, { key });
    expect(read.status).toBe(200);
    if (read.body.data.status === 'success' || read.body.data.status === 'failed') return read.body.data as Record<string, any>;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`delivery ${listed.id} never ended`);
}

/** Renames the bootstrap workspace: one workspace.updated event. */
async function renameWorkspace(name: string) {
  const { body } = await api.call('GET', '/workspaces');
  expect((await api.call('PATCH', `/workspaces/${body.data[0].id}`, { body: { name } })).status).toBe(200);
}

describe('webhook delivery through the local runner', () => {
  it('sends every subscribed mutation to the receiver, signed with both schemes, with the resource as the API returned it', async () => {
    const all = await subscribe('/all', ['*']);
    const keysOnly = await subscribe('/keys', ['api_key.*']);
    const membersOnly = await subscribe('/members', ['member.added']);

    const created = await api.call('POST', '/api-keys', { body: { name: 'ci', scopes: ['workspaces:read'] } });
    const rotated = await api.call('POST', `/api-keys/${created.body.data.id}/rotate`, { body: { grace_period_hours: 1 } });
    const revoked = await api.call('DELETE', `/api-keys/${rotated.body.data.id}`);
    const workspace = await api.call('POST', '/workspaces', { body: { name: 'Hooked' } });
    const renamed = await api.call('PATCH', `/workspaces/${workspace.body.data.id}`, { body: { name: 'Hooked again' } });
    expect([created.status, rotated.status, revoked.status, workspace.status, renamed.status]).toEqual([201, 200, 204, 201, 200]);

    await receiver.waitFor(3, to('/keys'));
    const keyEvents = eventsAt('/keys', keysOnly.secret);
    expect(keyEvents.map((e) => e.type)).toEqual(['api_key.created', 'api_key.rotated', 'api_key.revoked']);
    const { key: _shownOnce, ...createdView } = created.body.data;
    expect(keyEvents[0].data).toEqual(createdView);
    expect(JSON.stringify(keyEvents)).not.toContain(created.body.data.key);
    expect(keyEvents[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      created_at: expect.any(String),
      workspace_id: created.body.data.workspace_id,
    });
    expect(receiver.received.find(to('/keys'))!.headers['user-agent']).toBe('tenant-api-webhooks/1');

    // The workspace made here belongs to the same user, but its events are its own workspace's.
    await receiver.waitFor(1, (hook) => hook.path === '/all' && hook.headers['x-webhook-event'] === 'api_key.revoked');
    const allTypes = eventsAt('/all', all.secret).map((e) => e.type);
    expect(allTypes).toEqual(expect.arrayContaining(['webhook.created', 'api_key.created', 'api_key.rotated', 'api_key.revoked']));
    // Nobody joined: an endpoint of another type hears nothing.
    expect(receiver.received.filter(to('/members'))).toEqual([]);
    expect(membersOnly.id).toMatch(/^wh_/);
  });

  it('keeps test and live apart: a test mutation reaches only test endpoints, and a live one only live endpoints', async () => {
    // Subscribed first, so that the live key creation making the test key is surely among what it hears.
    const live = await subscribe('/live', ['api_key.created']);
    const testKey = await api.call('POST', '/api-keys', { body: { name: 'sandbox', environment: 'test', scopes: ['*'] } });
    const sandbox = await subscribe('/sandbox', ['api_key.created'], testKey.body.data.key);

    const fromTest = await api.call('POST', '/api-keys', { key: testKey.body.data.key, body: { name: 'made in test' } });
    const fromLive = await api.call('POST', '/api-keys', { body: { name: 'made in live' } });
    await receiver.waitFor(1, to('/sandbox'));
    await receiver.waitFor(2, to('/live'));
    // Wait long enough for a wrong delivery to have arrived, had there been one.
    await new Promise((r) => setTimeout(r, 500));
    expect(eventsAt('/sandbox', sandbox.secret).map((e) => e.data.id)).toEqual([fromTest.body.data.id]);
    expect(
      eventsAt('/live', live.secret)
        .map((e) => e.data.id)
        .sort(),
    ).toEqual([testKey.body.data.id, fromLive.body.data.id].sort());
    // Each credential sees only its environment's endpoints.
    expect((await api.call('GET', `/webhooks/${sandbox.id}`)).status).toBe(404);
    expect((await api.call('GET', `/webhooks/${live.id}`, { key: testKey.body.data.key })).status).toBe(404);
  });

  it("delivers a workspace's last event, workspace.deleted, to its own endpoints, which then go with it", async () => {
    const workspace = await api.call('POST', '/workspaces', { body: { name: 'Short-lived' } });
    const inWorkspace = { 'X-Workspace-ID': workspace.body.data.id };
    const created = await api.call('POST', '/webhooks', {
      headers: inWorkspace,
      body: { url: `${receiver.origin}/farewell`, events: ['workspace.deleted'] },
    });
    expect(created.status).toBe(201);
    expect((await api.call('DELETE', `/workspaces/${workspace.body.data.id}`)).status).toBe(204);

    const [hook] = await receiver.waitFor(1, to('/farewell'));
    expect(verifyWebhook(hook, created.body.data.secret)).toMatchObject({
      type: 'workspace.deleted',
      workspace_id: workspace.body.data.id,
      data: { id: workspace.body.data.id },
    });
    expect((await api.call('GET', `/webhooks/${created.body.data.id}`, { headers: inWorkspace })).status).toBe(403);
  });

  it('walks the whole ladder against a receiver that always fails, then refuses a manual retry', async () => {
    const failing = await subscribe('/failing', ['workspace.updated']);
    receiver.answer('/failing', Array(6).fill(500));
    const { body } = await api.call('GET', '/workspaces');
    await api.call('PATCH', `/workspaces/${body.data[0].id}`, { body: { name: 'Ladder' } });

    const hits = await receiver.waitFor(6, to('/failing'));
    for (const hook of hits) verifyWebhook(hook, failing.secret);
    expect(new Set(hits.map((hook) => hook.headers['x-webhook-id'])).size).toBe(1);
    // Each attempt waited at least its rung of the ladder (scaled); timers never fire early.
    const waits = hits.slice(1).map((hook, i) => hook.receivedAt - hits[i].receivedAt);
    for (const [i, wait] of waits.entries()) expect(wait).toBeGreaterThanOrEqual(Math.floor(retryLadderSeconds[i + 1] * retryScale * 1000));
    let [delivery] = await deliveriesOf(failing);
    for (let i = 0; delivery.status !== 'failed' && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      [delivery] = await deliveriesOf(failing);
    }
    expect(delivery).toMatchObject({ status: 'failed', attempt: 6, response_code: 500, event_type: 'workspace.updated' });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.filter(to('/failing'))).toHaveLength(6);

    const retried = await api.call('POST', `/webhooks/${failing.id}/deliveries/${delivery.id}/retry`);
    expect(retried.status).toBe(400);
    expect(retried.body.error).toBe('cannot_retry');
  });

  it('ends a delivery the receiver rejects (4xx) at once, and a manual retry sends it again as the next attempt', async () => {
    const rejecting = await subscribe('/rejecting', ['workspace.updated']);
    receiver.answer('/rejecting', [422]);
    const { body } = await api.call('GET', '/workspaces');
    await api.call('PATCH', `/workspaces/${body.data[0].id}`, { body: { name: 'Rejected' } });
    await receiver.waitFor(1, to('/rejecting'));
    let [delivery] = await deliveriesOf(rejecting);
    for (let i = 0; delivery.status !== 'failed' && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 50));
      [delivery] = await deliveriesOf(rejecting);
    }
    expect(delivery).toMatchObject({ status: 'failed', attempt: 1, response_code: 422 });
    await new Promise((r) => setTimeout(r, 2 * retryLadderSeconds[1] * retryScale * 1000 + 200));
    expect(receiver.received.filter(to('/rejecting'))).toHaveLength(1);

    const retried = await api.call('POST', `/webhooks/${rejecting.id}/deliveries/${delivery.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toEqual({ id: delivery.id, status: 'pending', attempt: 2 });
    const [, again] = await receiver.waitFor(2, to('/rejecting'));
    expect(verifyWebhook(again, rejecting.secret).type).toBe('workspace.updated');
    for (let i = 0; delivery.status !== 'success' && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 50));
      [delivery] = await deliveriesOf(rejecting);
    }
    expect(delivery).toMatchObject({ status: 'success', attempt: 2, response_code: 200 });
    expect((await api.call('POST', `/webhooks/${rejecting.id}/deliveries/${delivery.id}/retry`)).status).toBe(400);
  });

  it('shows one delivery: what the receiver answered and why it ended; 404 through another endpoint or environment', async () => {
    const gone = await subscribe('/gone', ['workspace.updated']);
    const other = await subscribe('/gone-other', ['workspace.created']);
    receiver.answer('/gone', [410]);
    await renameWorkspace('Gone');
    const [hook] = await receiver.waitFor(1, to('/gone'));
    const delivery = await endedDeliveryOf(gone, hook);
    expect(delivery).toMatchObject({
      webhook_id: gone.id,
      event_type: 'workspace.updated',
      status: 'failed',
      attempt: 1,
      attempts: 1,
      response_code: 410,
      response_excerpt: 'answered 410',
      error: 'The receiver answered 410 Gone; a 4xx ends the delivery without retries.',
      next_retry_at: null,
    });
    expect(delivery.attempt_history).toMatchObject([{ attempt: 1, status_code: 410, error: delivery.error }]);
    const listed = (await deliveriesOf(gone)).find((d) => d.id === delivery.id);
    expect(listed).toEqual(delivery);

    const testKey = (await api.call('POST', '/api-keys', { body: { name: 'sandbox reader', environment: 'test', scopes: ['*'] } })).body
      .data.key;
    const outsider = (await api.call('POST', '/api-keys', { body: { name: 'no webhooks', scopes: ['workspaces:read'] } })).body.data.key;
    for (const [path, key] of [
      [`/webhooks/${other.id}/deliveries/${delivery.id}`, undefined],
      [`/webhooks/${gone.id}/deliveries/del_01ARZ3NDEKTSV4RRFFQ69G5FAV`, undefined],
      [`/webhooks/${gone.id}/deliveries/${delivery.id}`, testKey],
    ] as const) {
      const refused = await api.call('GET', path, { key });
      expect({ path, status: refused.status, code: refused.body.error_code }).toEqual({ path, status: 404, code: 'RESOURCE_NOT_FOUND' });
    }
    const unscoped = await api.call('GET', `/webhooks/${gone.id}/deliveries/${delivery.id}`, { key: outsider });
    expect({ status: unscoped.status, scope: unscoped.body.required_scope }).toEqual({ status: 403, scope: 'webhooks:read' });
  });

  it('allows 10 test sends a minute per endpoint, then answers 429 with Retry-After; another endpoint is not affected', async () => {
    const probed = await subscribe('/probed', ['api_key.created']);
    const other = await subscribe('/probed-other', ['api_key.created']);
    // Not across a minute's end: the window is the clock's minute.
    if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 100));
    for (let i = 0; i < 10; i++) expect((await api.call('POST', `/webhooks/${probed.id}/test`)).status).toBe(200);
    const refused = await api.call('POST', `/webhooks/${probed.id}/test`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: 'rate_limit_exceeded',
      error_code: 'RATE_LIMIT_EXCEEDED',
      limit: 10,
      remaining: 0,
      retry_after: expect.any(Number),
    });
    expect(refused.body.message).toMatch(/10 test sends per webhook endpoint/);
    expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.retry_after);
    // The headers report the limit that refused it, not the key's own allowance (which has room).
    expect([refused.headers.get('x-ratelimit-limit'), refused.headers.get('x-ratelimit-remaining')]).toEqual(['10', '0']);
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.parse(refused.body.reset_at) / 1000));
    expect(refused.body.retry_after).toBeLessThanOrEqual(60);
    expect(receiver.received.filter(to('/probed'))).toHaveLength(10);
    expect((await api.call('POST', `/webhooks/${other.id}/test`)).status).toBe(200);
  });

  it('sends a signed webhook.test on demand and answers what the receiver said', async () => {
    const tested = await subscribe('/tested', ['api_key.created']);
    const answer = await api.call('POST', `/webhooks/${tested.id}/test`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      status_code: 200,
      response_time_ms: expect.any(Number),
      response_body: 'answered 200',
    });
    const [hook] = await receiver.waitFor(1, to('/tested'));
    expect(verifyWebhook(hook, tested.secret).type).toBe('webhook.test');

    receiver.answer('/tested', [503]);
    const failed = await api.call('POST', `/webhooks/${tested.id}/test`);
    expect(failed.body).toMatchObject({ success: false, status_code: 503 });
  });
});

describe('a key with only webhooks:* on an owner account', () => {
  it('cannot carry events it may not read to its own receiver by narrowing a * endpoint and moving its url: old deliveries end unsent', async () => {
    const webhooksOnly = (await api.call('POST', '/api-keys', { body: { name: 'webhooks only', scopes: ['webhooks:*'] } })).body.data
      .key as string;
    const victim = await subscribe('/victim', ['*']);
    const atVictim = (type: string) => (hook: ReceivedWebhook) => hook.path === '/victim' && hook.headers['x-webhook-event'] === type;
    // Its own webhook.created reaches it first; then one api_key.created is rejected, and another stays on the ladder.
    await receiver.waitFor(1, atVictim('webhook.created'));
    receiver.answer('/victim', [422]);
    expect((await api.call('POST', '/api-keys', { body: { name: 'rejected', scopes: ['workspaces:read'] } })).status).toBe(201);
    const [rejectedHook] = await receiver.waitFor(1, atVictim('api_key.created'));
    receiver.answer('/victim', Array(5).fill(503));
    expect((await api.call('POST', '/api-keys', { body: { name: 'retrying', scopes: ['workspaces:read'] } })).status).toBe(201);
    const retryingHook = (await receiver.waitFor(6, atVictim('api_key.created')))[1]!;
    const deliveryOf = async (hook: ReceivedWebhook) =>
      (await deliveriesOf(victim)).find((d) => d.event_id === hook.headers['x-webhook-id'])!;
    const rejected = await endedDeliveryOf(victim, rejectedHook);
    expect(rejected).toMatchObject({ event_type: 'api_key.created', status: 'failed', attempt: 1, response_code: 422 });
    let retrying = await deliveryOf(retryingHook);
    for (let i = 0; retrying.attempt < 5 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 50));
      retrying = await deliveryOf(retryingHook);
    }
    expect(retrying).toMatchObject({ status: 'retrying', attempt: 5, next_retry_at: expect.any(String) });

    // The key may not read API keys, nor point the * endpoint elsewhere; narrowed to webhook.* (what it reads), it may.
    expect((await api.call('GET', '/api-keys', { key: webhooksOnly })).status).toBe(403);
    expect(
      (await api.call('PATCH', `/webhooks/${victim.id}`, { key: webhooksOnly, body: { url: `${receiver.origin}/thief` } })).status,
    ).toBe(403);
    expect((await api.call('PATCH', `/webhooks/${victim.id}`, { key: webhooksOnly, body: { events: ['webhook.*'] } })).status).toBe(200);
    expect(
      (await api.call('PATCH', `/webhooks/${victim.id}`, { key: webhooksOnly, body: { url: `${receiver.origin}/thief` } })).status,
    ).toBe(200);

    const retried = await api.call('POST', `/webhooks/${victim.id}/deliveries/${rejected.id}/retry`, { key: webhooksOnly });
    expect({
      status: retried.status,
      error: retried.body.error,
      current_state: retried.body.current_state,
      attempt: retried.body.attempt,
    }).toEqual({
      status: 400,
      error: 'cannot_retry',
      current_state: 'failed',
      attempt: 1,
    });
    expect(retried.body.message).toBe(
      "The endpoint no longer subscribes to api_key.created: a delivery is sent only while its endpoint subscribes to its event's type.",
    );

    // The 6th attempt of the one retrying, due about 8.6 s after the 5th (scaled), ends it unsent.
    for (let i = 0; retrying.status === 'retrying' && i < 300; i++) {
      await new Promise((r) => setTimeout(r, 50));
      retrying = (await api.call('GET', `/webhooks/${victim.id}/deliveries/${retrying.id}`, { key: webhooksOnly })).body.data;
    }
    expect(retrying).toMatchObject({
      status: 'failed',
      attempt: 6,
      error: 'The endpoint no longer subscribes to api_key.created; the delivery ended unsent.',
    });
    expect(
      receiver.received.filter((hook) => hook.path === '/thief' && !String(hook.headers['x-webhook-event']).startsWith('webhook.')),
    ).toEqual([]);
    expect(receiver.received.filter(atVictim('api_key.created'))).toHaveLength(6);
    // The unsent end is no receiver's failure: only the rejected delivery counts.
    expect((await api.call('GET', `/webhooks/${victim.id}`)).body.data).toMatchObject({ failure_count: 1, is_active: true });
  });
});

describe('roles in webhook management', () => {
  /** A key of a user who joined the bootstrap workspace as `role`, acting there. */
  async function keyOfA(role: 'member' | 'admin', email: string) {
    const { session, workspaceId } = await joinAsMember(api, undefined, { name: role, email, password: 'roles for webhooks', role });
    const made = await api.call(
      'POST',
      '/api-keys',
      as(session, { body: { name: `${role} key`, scopes: ['*'], workspace_id: workspaceId } }),
    );
    expect(made.status).toBe(201);
    return made.body.data.key as string;
  }

  it("refuses a member's key creating, changing, deleting an endpoint or rotating its secret; it still reads, tests and retries", async () => {
    const memberKey = await keyOfA('member', 'webhook-member@example.com');
    const endpoint = await subscribe('/members', ['workspace.updated']);
    // Every answer 422: the workspace's webhook.* notices (another test's endpoint disabled) reach this endpoint too.
    receiver.answer('/members', Array(10).fill(422));
    const { body } = await api.call('GET', '/workspaces');
    await api.call('PATCH', `/workspaces/${body.data[0].id}`, { body: { name: 'Seen by members' } });
    const [renamed] = await receiver.waitFor(1, (hook) => to('/members')(hook) && hook.headers['x-webhook-event'] === 'workspace.updated');
    const delivery = await endedDeliveryOf(endpoint, renamed!, memberKey);
    expect(delivery).toMatchObject({ status: 'failed', response_code: 422 });

    for (const [method, path, sent] of [
      ['POST', '/webhooks', { url: `${receiver.origin}/mine`, events: ['*'] }],
      ['PATCH', `/webhooks/${endpoint.id}`, { url: `${receiver.origin}/mine` }],
      ['PATCH', `/webhooks/${endpoint.id}`, { is_active: false }],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`, { grace_period_hours: 0 }],
      ['DELETE', `/webhooks/${endpoint.id}`, undefined],
    ] as const) {
      const answer = await api.call(method, path, { key: memberKey, body: sent });
      expect({ method, path, status: answer.status, code: answer.body.error_code, message: answer.body.message }).toEqual({
        method,
        path,
        status: 403,
        code: 'ACCESS_DENIED',
        message: expect.stringMatching(/^Only a workspace owner or admin may .+; you are a member\.$/),
      });
    }
    expect((await api.call('GET', `/webhooks/${endpoint.id}`, { key: memberKey })).body.data).toMatchObject({
      url: `${receiver.origin}/members`,
      is_active: true,
    });

    expect((await api.call('GET', '/webhooks', { key: memberKey })).status).toBe(200);
    expect((await api.call('POST', `/webhooks/${endpoint.id}/test`, { key: memberKey })).status).toBe(200);
    const retried = await api.call('POST', `/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`, { key: memberKey });
    expect(retried.status).toBe(200);
  });

  it("counts deliveries, not attempts: a member's manual retries of failed deliveries never disable the endpoint; a retry that succeeds moves the count", async () => {
    const memberKey = await keyOfA('member', 'webhook-retrier@example.com');
    const counted = await subscribe('/counted', ['workspace.updated']);
    receiver.answer('/counted', Array(19).fill(410));
    /** The `n`th request /counted received, once it has. */
    const hook = async (n: number) => (await receiver.waitFor(n, to('/counted')))[n - 1]!;
    // Three deliveries, each retried by the member until its six attempts are used: eighteen failed attempts, more than 15.
    for (let delivery = 0; delivery < 3; delivery++) {
      await renameWorkspace(`Counted ${delivery}`);
      let ended = await endedDeliveryOf(counted, await hook(delivery * 6 + 1), memberKey);
      for (let retry = 1; retry <= 5; retry++) {
        const retried = await api.call('POST', `/webhooks/${counted.id}/deliveries/${ended.id}/retry`, { key: memberKey });
        expect(retried.status).toBe(200);
        ended = await endedDeliveryOf(counted, await hook(delivery * 6 + 1 + retry), memberKey);
      }
      expect(ended).toMatchObject({ status: 'failed', attempt: 6 });
    }
    expect((await api.call('GET', `/webhooks/${counted.id}`, { key: memberKey })).body.data).toMatchObject({
      is_active: true,
      success_count: 0,
      failure_count: 3,
      consecutive_failures: 3,
      disabled_at: null,
    });

    await renameWorkspace('Counted 3');
    const failed = await endedDeliveryOf(counted, await hook(19), memberKey);
    expect(failed).toMatchObject({ status: 'failed', attempt: 1 });
    expect((await api.call('POST', `/webhooks/${counted.id}/deliveries/${failed.id}/retry`, { key: memberKey })).status).toBe(200);
    expect(await endedDeliveryOf(counted, await hook(20), memberKey)).toMatchObject({ id: failed.id, status: 'success', attempt: 2 });
    expect((await api.call('GET', `/webhooks/${counted.id}`)).body.data).toMatchObject({
      success_count: 1,
      failure_count: 3,
      consecutive_failures: 0,
    });
  });

  it("lets an admin's key manage endpoints", async () => {
    const adminKey = await keyOfA('admin', 'webhook-admin@example.com');
    const created = await api.call('POST', '/webhooks', {
      key: adminKey,
      body: { url: `${receiver.origin}/admins`, events: ['webhook.*'] },
    });
    expect(created.status).toBe(201);
    expect((await api.call('POST', `/webhooks/${created.body.data.id}/rotate-secret`, { key: adminKey, body: {} })).status).toBe(200);
    expect((await api.call('PATCH', `/webhooks/${created.body.data.id}`, { key: adminKey, body: { is_active: false } })).status).toBe(200);
    expect((await api.call('DELETE', `/webhooks/${created.body.data.id}`, { key: adminKey })).status).toBe(204);
  });
});
