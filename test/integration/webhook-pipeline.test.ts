import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { emitEvents, type NewEvent } from '#core/events/outbox';
import type { DeliveryMessage } from '#core/ports/webhook-delivery';
import { attemptDelivery } from '#core/webhooks/attempt';
import type { DeliveryOptions } from '#core/webhooks/delivery-options';
import { fanOut } from '#core/webhooks/fan-out';
import { sweep } from '#core/webhooks/sweeper';
import type { TestDeps } from '../support/deps.ts';
import { startReceiver, storeEndpoint, testSecret, type WebhookTestDeps, webhookTestDeps } from '../support/webhooks.ts';

const local: DeliveryOptions = { allowInsecure: true, retryScale: 1, timeoutMs: 5_000, disableAfter: 15 };

let deps: TestDeps;
let clock: WebhookTestDeps['clock'];
let queue: WebhookTestDeps['queue'];
let scheduler: WebhookTestDeps['scheduler'];
let relayed: string[];
const receivers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  ({ deps, clock, queue, scheduler, relayed } = await webhookTestDeps());
});
afterEach(() => {
  queue.take();
  scheduler.take();
  queue.fail(false);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await deps.close();
});

async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

let workspaces = 0;
const newWorkspace = () => `wks_TEST${String(++workspaces).padStart(22, '0')}`;

/** Emits one event through the outbox; its id. */
async function emit(workspaceId: string, type: NewEvent['type'] = 'workspace.updated', environment: 'live' | 'test' = 'live') {
  const before = relayed.length;
  await emitEvents(deps, [{ type, origin: { workspaceId, environment }, data: { id: workspaceId, name: 'Acme' } }]);
  return relayed[before]!;
}

const deliveriesTo = async (webhookId: string) =>
  (await deps.db.entities.webhookDelivery.query.byWebhook({ webhookId }).go({ pages: 'all' })).data;
const endpointOf = async (endpoint: { workspaceId: string; environment: 'live' | 'test'; id: string }) =>
  (
    await deps.db.entities.webhookEndpoint
      .get({ workspaceId: endpoint.workspaceId, environment: endpoint.environment, id: endpoint.id })
      .go({ consistent: true })
  ).data!;

/** Runs every message the queue holds now, each at once. */
async function drainQueue(options = local) {
  for (const { message } of queue.take()) await attemptDelivery(deps, message, options);
}

describe('the retry ladder', () => {
  it('against a receiver that always answers 500: attempts at 0, +60, +300, +1800, +7200, +86400 s, the short waits queued, the long ones scheduled, then failed', async () => {
    const down = await receiver(() => ({ status: 500, body: 'down' }));
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: down.url });
    await fanOut(deps, [await emit(endpoint.workspaceId)]);
    const [first] = queue.take();
    expect(first!.delaySeconds).toBe(0);

    const gaps: number[] = [];
    const wakes: [string, number][] = [];
    let message: DeliveryMessage | undefined = first!.message;
    let last = clock.now().getTime();
    while (message) {
      gaps.push((clock.now().getTime() - last) / 1000);
      last = clock.now().getTime();
      await attemptDelivery(deps, message, local);
      const [queued] = queue.take();
      const [scheduled] = scheduler.take();
      message = queued?.message ?? scheduled?.message;
      if (queued) {
        wakes.push(['queue', queued.delaySeconds]);
        clock.advance(queued.delaySeconds * 1000);
      } else if (scheduled) {
        const wait = scheduled.at.getTime() - clock.now().getTime();
        wakes.push(['schedule', wait / 1000]);
        clock.advance(wait);
      }
    }

    expect(gaps).toEqual([0, 60, 300, 1_800, 7_200, 86_400]);
    expect(wakes).toEqual([
      ['queue', 60],
      ['queue', 300],
      ['schedule', 1_800],
      ['schedule', 7_200],
      ['schedule', 86_400],
    ]);
    expect(down.received).toHaveLength(6);
    const [delivery] = await deliveriesTo(endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', attempt: 6, responseCode: 500, responseExcerpt: 'down' });
    expect(delivery!.dueAt).toBeUndefined();
    expect(delivery!.nextRetryAt).toBeUndefined();
    expect((delivery!.attempts as { attempt: number }[]).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await endpointOf(endpoint)).toMatchObject({ failureCount: 1, consecutiveFailures: 1, successCount: 0 });
  });

  it('multiplies every wait by WEBHOOK_RETRY_SCALE', async () => {
    const down = await receiver(() => ({ status: 503 }));
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: down.url });
    await fanOut(deps, [await emit(endpoint.workspaceId)]);
    await attemptDelivery(deps, queue.take()[0]!.message, { ...local, retryScale: 0.001 });
    expect(queue.take().map((q) => q.delaySeconds)).toEqual([0.06]);
  });
});

describe('an attempt', () => {
  it('that gets a 2xx ends in success, signed so that both schemes verify', async () => {
    const ok = await receiver();
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: ok.url });
    const eventId = await emit(endpoint.workspaceId);
    await fanOut(deps, [eventId]);
    await drainQueue();

    const [delivery] = await deliveriesTo(endpoint.id);
    expect(delivery).toMatchObject({ status: 'success', attempt: 1, responseCode: 200, deliveredAt: clock.now().toISOString() });
    expect(delivery!.dueAt).toBeUndefined();
    expect(await endpointOf(endpoint)).toMatchObject({
      successCount: 1,
      consecutiveFailures: 0,
      lastDeliveryAt: clock.now().toISOString(),
    });
    const [got] = ok.received;
    expect(JSON.parse(got!.body)).toMatchObject({
      id: eventId,
      type: 'workspace.updated',
      workspace_id: endpoint.workspaceId,
      data: { name: 'Acme' },
    });
    expect(got!.headers['x-webhook-id']).toBe(eventId);
    const headers = Object.fromEntries(Object.entries(got!.headers).map(([k, v]) => [k, String(v)]));
    jest.useFakeTimers({ now: clock.now(), doNotFake: ['nextTick', 'setImmediate'] });
    try {
      expect(() => new Webhook(testSecret).verify(got!.body, headers)).not.toThrow();
    } finally {
      jest.useRealTimers();
    }
  });

  it.each([[400], [410], [301]])('that gets a %s ends failed at once, with no further attempt', async (status) => {
    const refusing = await receiver(() => ({ status, body: 'no' }));
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: refusing.url });
    await fanOut(deps, [await emit(endpoint.workspaceId)]);
    await drainQueue();
    expect(await deliveriesTo(endpoint.id)).toMatchObject([{ status: 'failed', attempt: 1, responseCode: status }]);
    expect(queue.sent).toEqual([]);
    expect(scheduler.scheduled).toEqual([]);
  });

  it('that times out is retried on the ladder, with the timeout as its error', async () => {
    const stuck = createServer(() => {}); // takes the request, never answers
    await new Promise<void>((listening) => stuck.listen(0, '127.0.0.1', listening));
    try {
      const { port } = stuck.address() as AddressInfo;
      const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: `http://127.0.0.1:${port}/hook` });
      await fanOut(deps, [await emit(endpoint.workspaceId)]);
      await drainQueue({ ...local, timeoutMs: 300 });
      expect(await deliveriesTo(endpoint.id)).toMatchObject([
        { status: 'retrying', attempt: 2, error: 'The request failed: timed out after 300 ms' },
      ]);
      expect(queue.take().map((q) => q.delaySeconds)).toEqual([60]);
    } finally {
      stuck.closeAllConnections();
      await new Promise((closed) => stuck.close(closed));
    }
  });

  it('happens once for two copies of its message, and a stale message is dropped', async () => {
    const ok = await receiver();
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: ok.url });
    await fanOut(deps, [await emit(endpoint.workspaceId)]);
    const { message } = queue.take()[0]!;
    await Promise.all([attemptDelivery(deps, message, local), attemptDelivery(deps, message, local)]);
    await attemptDelivery(deps, message, local);
    expect(ok.received).toHaveLength(1);
  });

  it('to an endpoint whose name resolves to 127.0.0.1 is refused at send time, and fails at once', async () => {
    const local127 = await receiver();
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: `https://localhost:${local127.port}/hook` });
    await fanOut(deps, [await emit(endpoint.workspaceId)]);
    await drainQueue({ ...local, allowInsecure: false });
    const [delivery] = await deliveriesTo(endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', attempt: 1 });
    // Never the address the name resolved to: that would map the resolver's private names.
    expect(delivery!.error).toBe("The URL's host resolves to an address that is not public; refused.");
    expect(JSON.stringify(delivery)).not.toMatch(/127\.0\.0\.1|::1\b/);
    expect(local127.received).toEqual([]);
  });

  it('over http:// is refused unless insecure targets are allowed', async () => {
    const plain = await receiver();
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: plain.url });
    await fanOut(deps, [await emit(endpoint.workspaceId)]);
    await drainQueue({ ...local, allowInsecure: false });
    expect(await deliveriesTo(endpoint.id)).toMatchObject([{ status: 'failed', error: 'The endpoint URL must use https (got http:).' }]);
    expect(plain.received).toEqual([]);
  });

  it('to an endpoint disabled meanwhile ends failed, saying so', async () => {
    const ok = await receiver();
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: ok.url });
    await fanOut(deps, [await emit(endpoint.workspaceId)]);
    await deps.db.entities.webhookEndpoint
      .patch({ workspaceId: endpoint.workspaceId, environment: 'live', id: endpoint.id })
      .set({ isActive: false })
      .go();
    await drainQueue();
    expect(await deliveriesTo(endpoint.id)).toMatchObject([
      { status: 'failed', error: 'The webhook endpoint is disabled (is_active is false).' },
    ]);
    expect(ok.received).toEqual([]);
  });

  it('for a type the endpoint no longer subscribes to ends failed unsent, pending or retrying, and counts nothing on the endpoint', async () => {
    const first = await receiver(() => ({ status: 503 }));
    const moved = await receiver();
    const workspaceId = newWorkspace();
    const endpoint = await storeEndpoint(deps, { workspaceId, url: first.url, events: ['*'] });
    await fanOut(deps, [await emit(workspaceId, 'api_key.created')]);
    await drainQueue();
    await fanOut(deps, [await emit(workspaceId, 'workspace.updated')]);
    const byType = async () => Object.fromEntries((await deliveriesTo(endpoint.id)).map((d) => [d.eventType, d]));
    expect(await byType()).toMatchObject({
      'api_key.created': { status: 'retrying', attempt: 2 },
      'workspace.updated': { status: 'pending', attempt: 1 },
    });

    // Narrowed to what webhooks:read reads, then pointed elsewhere: neither delivery may follow.
    await deps.db.entities.webhookEndpoint
      .patch({ workspaceId, environment: 'live', id: endpoint.id })
      .set({ events: ['webhook.*'], url: moved.url })
      .go();
    clock.advance(60_000);
    await drainQueue({ ...local, disableAfter: 1 });

    const unsent = (type: string) => ({
      status: 'failed',
      error: `The endpoint no longer subscribes to ${type}; the delivery ended unsent.`,
    });
    const ended = await byType();
    expect(ended).toMatchObject({ 'api_key.created': unsent('api_key.created'), 'workspace.updated': unsent('workspace.updated') });
    expect(ended['api_key.created']!.attempts).toMatchObject([
      { attempt: 1, status_code: 503 },
      { attempt: 2, error: unsent('api_key.created').error },
    ]);
    expect(ended['api_key.created']!.countedAs).toBeUndefined();
    expect(moved.received).toEqual([]);
    expect(first.received).toHaveLength(1);
    expect([queue.take(), scheduler.take()]).toEqual([[], []]);
    // No receiver failed: no failure counted, nothing toward disabling (after one failure here).
    expect(await endpointOf(endpoint)).toMatchObject({ isActive: true, successCount: 0, failureCount: 0, consecutiveFailures: 0 });
    expect((await endpointOf(endpoint)).lastDeliveryAt).toBeUndefined();
  });
});

describe('fan-out', () => {
  it('repeated, or after the queue failed, creates each delivery once and loses nothing', async () => {
    const ok = await receiver();
    const workspaceId = newWorkspace();
    const endpoints = [await storeEndpoint(deps, { workspaceId, url: ok.url }), await storeEndpoint(deps, { workspaceId, url: ok.url })];
    const eventId = await emit(workspaceId);
    queue.fail(true);
    await expect(fanOut(deps, [eventId])).rejects.toThrow('the queue is down');
    queue.fail(false);
    await fanOut(deps, [eventId, eventId]);
    await fanOut(deps, [eventId]);
    for (const endpoint of endpoints) expect(await deliveriesTo(endpoint.id)).toHaveLength(1);
    await drainQueue();
    expect(ok.received).toHaveLength(2);
  });

  it('reaches the endpoints subscribed to the type, by name, resource or *', async () => {
    const ok = await receiver();
    const workspaceId = newWorkspace();
    const all = await storeEndpoint(deps, { workspaceId, url: ok.url, events: ['*'] });
    const workspaces = await storeEndpoint(deps, { workspaceId, url: ok.url, events: ['workspace.*'] });
    const keys = await storeEndpoint(deps, { workspaceId, url: ok.url, events: ['api_key.created'] });
    const members = await storeEndpoint(deps, { workspaceId, url: ok.url, events: ['member.added'] });
    const inactive = await storeEndpoint(deps, { workspaceId, url: ok.url, events: ['*'], isActive: false });
    await fanOut(deps, [await emit(workspaceId, 'workspace.updated'), await emit(workspaceId, 'member.added')]);
    const typesTo = async (endpoint: { id: string }) => (await deliveriesTo(endpoint.id)).map((d) => d.eventType).sort();
    expect(await typesTo(all)).toEqual(['member.added', 'workspace.updated']);
    expect(await typesTo(workspaces)).toEqual(['workspace.updated']);
    expect(await typesTo(keys)).toEqual([]);
    expect(await typesTo(members)).toEqual(['member.added']);
    expect(await typesTo(inactive)).toEqual([]);
  });

  it('reaches only the endpoints that were there when the event happened, however late the fan-out', async () => {
    const ok = await receiver();
    const workspaceId = newWorkspace();
    const before = await storeEndpoint(deps, { workspaceId, url: ok.url, events: ['*'] });
    const eventId = await emit(workspaceId, 'workspace.updated');
    clock.advance(1000);
    const after = await storeEndpoint(deps, { workspaceId, url: ok.url, events: ['*'] });
    await fanOut(deps, [eventId]);
    expect((await deliveriesTo(before.id)).map((d) => d.eventId)).toEqual([eventId]);
    expect(await deliveriesTo(after.id)).toEqual([]);
  });

  it('keeps test and live apart: an event reaches only endpoints of its own environment', async () => {
    const ok = await receiver();
    const workspaceId = newWorkspace();
    const live = await storeEndpoint(deps, { workspaceId, url: ok.url, environment: 'live' });
    const test = await storeEndpoint(deps, { workspaceId, url: ok.url, environment: 'test' });
    const other = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: ok.url, environment: 'test' });
    await fanOut(deps, [await emit(workspaceId, 'workspace.updated', 'test')]);
    expect(await deliveriesTo(live.id)).toEqual([]);
    expect(await deliveriesTo(test.id)).toMatchObject([{ environment: 'test' }]);
    expect(await deliveriesTo(other.id)).toEqual([]);
  });
});

describe('an endpoint', () => {
  it('is disabled after 15 deliveries in a row end failed, with one webhook.disabled event; a success resets the run', async () => {
    let answer = 200;
    const flaky = await receiver(() => ({ status: answer }));
    const workspaceId = newWorkspace();
    const endpoint = await storeEndpoint(deps, { workspaceId, url: flaky.url, events: ['workspace.*'] });
    const deliverOne = async () => {
      await fanOut(deps, [await emit(workspaceId)]);
      await drainQueue();
    };
    answer = 400;
    for (let i = 0; i < 14; i++) await deliverOne();
    answer = 200;
    await deliverOne();
    expect(await endpointOf(endpoint)).toMatchObject({ consecutiveFailures: 0, isActive: true, failureCount: 14 });
    answer = 400;
    const before = relayed.length;
    for (let i = 0; i < 15; i++) await deliverOne();

    expect(await endpointOf(endpoint)).toMatchObject({
      isActive: false,
      consecutiveFailures: 15,
      failureCount: 29,
      disabledAt: clock.now().toISOString(),
    });
    const emitted = await Promise.all(
      relayed.slice(before).map(async (id) => (await deps.db.entities.webhookEvent.get({ id }).go()).data!),
    );
    const disabled = emitted.filter((event) => event.type === 'webhook.disabled');
    expect(disabled).toHaveLength(1);
    expect(JSON.parse(disabled[0]!.body)).toMatchObject({
      type: 'webhook.disabled',
      workspace_id: workspaceId,
      data: { id: endpoint.id, is_active: false },
    });
    expect(disabled[0]!.body).not.toContain(testSecret);
    // Disabled, it receives nothing more, and no second event is emitted.
    await fanOut(deps, [await emit(workspaceId)]);
    expect(queue.take()).toEqual([]);
    expect(relayed.slice(before).length).toBe(16 + 1);
  });
});

describe('the sweeper', () => {
  it('fans out an event whose relay was lost', async () => {
    const ok = await receiver();
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: ok.url });
    await emit(endpoint.workspaceId);
    expect(await deliveriesTo(endpoint.id)).toEqual([]);
    clock.advance(5 * 60 * 1000);
    const swept = await sweep(deps, { dueBefore: new Date(clock.now().getTime() - 2 * 60 * 1000) });
    expect(swept.events).toBeGreaterThanOrEqual(1);
    await drainQueue();
    expect(await deliveriesTo(endpoint.id)).toMatchObject([{ status: 'success' }]);
    expect(ok.received).toHaveLength(1);
  });

  it('wakes a delivery whose wake-up was lost, and re-arms a pending retry at its due time', async () => {
    let answer = 500;
    const flaky = await receiver(() => ({ status: answer }));
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: flaky.url });
    await fanOut(deps, [await emit(endpoint.workspaceId)]);
    await drainQueue();
    queue.take(); // the wake-up for attempt 2 is lost

    await sweep(deps, { dueBefore: new Date('2100-01-01T00:00:00Z') });
    expect(queue.take().filter((q) => q.message.webhookId === endpoint.id)).toMatchObject([{ delaySeconds: 60, message: { attempt: 2 } }]);

    clock.advance(10 * 60 * 1000);
    const swept = await sweep(deps, { dueBefore: new Date(clock.now().getTime() - 2 * 60 * 1000) });
    // Attempt 2 fell due a minute after attempt 1, nine minutes ago (another test's delivery may have waited longer still).
    expect(swept.oldestDueDeliverySeconds).toBeGreaterThanOrEqual(8 * 60);
    answer = 200;
    await drainQueue();
    expect(await deliveriesTo(endpoint.id)).toMatchObject([{ status: 'success', attempt: 2 }]);
  });
});
