import type { Principal } from '#core/auth/principal';
import { CannotRetry, NotFound } from '#core/errors';
import { emitEvents } from '#core/events/outbox';
import type { Route } from '#core/route-types';
import { attemptDelivery } from '#core/webhooks/attempt';
import type { DeliveryOptions } from '#core/webhooks/delivery-options';
import { fanOut } from '#core/webhooks/fan-out';
import { retryDelivery } from '#core/webhooks/deliveries';
import { sendTestEvent } from '#core/webhooks/test-send';
import { routes } from '#routes';
import { webhookDeliveryHandlers } from '../../functions/webhook-deliveries/handlers.ts';
import { manualClock, testDeps, type TestDeps } from '../support/deps.ts';
import { recordingQueue, recordingScheduler, startReceiver, storeEndpoint } from '../support/webhooks.ts';

const local: DeliveryOptions = { allowInsecure: true, retryScale: 1, timeoutMs: 5_000, disableAfter: 1_000 };

let deps: TestDeps;
let clock: ReturnType<typeof manualClock>;
let queue: ReturnType<typeof recordingQueue>;
const relayed: string[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** The receiver answers each event by the number in its data: even 200, odd 400. */
const answerOf = (body: string) => ((JSON.parse(body) as { data: { n: number } }).data.n % 2 ? 400 : 200);

beforeAll(async () => {
  // Real time, to the second: DynamoDB Local's TTL removes items whose ttl has passed by the wall clock.
  clock = manualClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  queue = recordingQueue(clock);
  deps = await testDeps({ clock, deliveryQueue: queue, retryScheduler: recordingScheduler(), eventRelay: { relay: async (ids) => void relayed.push(...ids) } });
  receiver = await startReceiver(({ body }) => ({ status: answerOf(body), body: 'thanks' }));
});
afterAll(async () => {
  await receiver.close();
  await deps.close();
});

let workspaces = 0;
const newWorkspace = () => `wks_TEST${String(++workspaces).padStart(22, '0')}`;
const principalIn = (workspaceId: string, environment: 'live' | 'test' = 'live'): Principal => ({
  userId: 1, workspaceId, role: 'owner', environment, scopes: ['*'], tier: 'pro', credential: { type: 'api_key', id: 'key_test' },
});

/** `n` events to a fresh endpoint, one a second, each delivered once: even ones succeed, odd ones fail (400). */
async function endpointWithDeliveries(n: number) {
  const workspaceId = newWorkspace();
  const endpoint = await storeEndpoint(deps, { workspaceId, url: receiver.url });
  for (let i = 0; i < n; i++) {
    clock.advance(1000);
    await emitEvents(deps, [{ type: 'workspace.updated', origin: { workspaceId, environment: 'live' }, data: { n: i } }]);
    await fanOut(deps, [relayed[relayed.length - 1]!]);
    for (const { message } of queue.take()) await attemptDelivery(deps, message, local);
  }
  return endpoint;
}

/** GET /webhooks/{id}/deliveries through its handler, as the function answers it. */
async function listDeliveries(principal: Principal, id: string, query = '') {
  const route = routes.find((r) => r.operationId === 'listWebhookDeliveries') as Route;
  const url = new URL(`https://api.test/api/v1/webhooks/${id}/deliveries?${query}`);
  const request = { principal, workspaceId: principal.workspaceId, params: { id }, query: route.query!.parse(Object.fromEntries(url.searchParams)), route, url };
  const response = await webhookDeliveryHandlers.listWebhookDeliveries(request as never, deps);
  return response.body as { data: { id: string; status: string; event_id: string; attempt: number }[]; meta: { total: number; to: number | null }; links: { next: string | null } };
}

describe('GET /webhooks/{id}/deliveries', () => {
  it('lists newest first, paged by cursor, with the total', async () => {
    const endpoint = await endpointWithDeliveries(7);
    const principal = principalIn(endpoint.workspaceId);
    const first = await listDeliveries(principal, endpoint.id, 'per_page=4');
    expect(first.meta).toMatchObject({ total: 7, to: 4 });
    const ids = first.data.map((d) => d.id);
    expect(ids).toEqual([...ids].sort().reverse());
    const second = await listDeliveries(principal, endpoint.id, new URL(first.links.next!).searchParams.toString());
    expect(second.data).toHaveLength(3);
    expect(second.links.next).toBeNull();
    expect([...ids, ...second.data.map((d) => d.id)]).toEqual([...ids, ...second.data.map((d) => d.id)].sort().reverse());
  });

  it('filters by status from its index, with that status\'s total', async () => {
    const endpoint = await endpointWithDeliveries(7);
    const principal = principalIn(endpoint.workspaceId);
    const failed = await listDeliveries(principal, endpoint.id, 'status=failed&per_page=2');
    expect(failed.meta.total).toBe(3);
    expect(failed.data.map((d) => d.status)).toEqual(['failed', 'failed']);
    const rest = await listDeliveries(principal, endpoint.id, new URL(failed.links.next!).searchParams.toString());
    expect(rest.data.map((d) => d.status)).toEqual(['failed']);
    expect((await listDeliveries(principal, endpoint.id, 'status=success')).meta.total).toBe(4);
    expect((await listDeliveries(principal, endpoint.id, 'status=pending')).meta.total).toBe(0);
  });

  it('answers 404 for an endpoint of another workspace or environment', async () => {
    const endpoint = await endpointWithDeliveries(1);
    await expect(listDeliveries(principalIn(newWorkspace()), endpoint.id)).rejects.toBeInstanceOf(NotFound);
    await expect(listDeliveries(principalIn(endpoint.workspaceId, 'test'), endpoint.id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('a manual retry', () => {
  it('puts a failed delivery back to pending with the next attempt number, queued at once, and counts it there', async () => {
    const endpoint = await endpointWithDeliveries(2);
    const scope = { workspaceId: endpoint.workspaceId, environment: 'live' as const };
    const [failed] = (await listDeliveries(principalIn(endpoint.workspaceId), endpoint.id, 'status=failed')).data;
    expect(await retryDelivery(deps, scope, endpoint.id, failed!.id)).toEqual({ id: failed!.id, status: 'pending', attempt: 2 });
    expect(queue.take()).toMatchObject([{ delaySeconds: 0, message: { deliveryId: failed!.id, attempt: 2 } }]);
    expect((await listDeliveries(principalIn(endpoint.workspaceId), endpoint.id, 'status=pending')).data.map((d) => d.id)).toEqual([failed!.id]);
    // Still pending: its attempt is on its way.
    await expect(retryDelivery(deps, scope, endpoint.id, failed!.id)).rejects.toBeInstanceOf(CannotRetry);
  });

  it('is refused (cannot_retry) for a delivery that succeeded or used all six attempts, and 404 elsewhere', async () => {
    const endpoint = await endpointWithDeliveries(1);
    const scope = { workspaceId: endpoint.workspaceId, environment: 'live' as const };
    const [succeeded] = (await listDeliveries(principalIn(endpoint.workspaceId), endpoint.id)).data;
    await expect(retryDelivery(deps, scope, endpoint.id, succeeded!.id)).rejects.toMatchObject({ code: 'cannot_retry', status: 400, extras: { current_state: 'success' } });
    await deps.db.entities.webhookDelivery.patch({ webhookId: endpoint.id, id: succeeded!.id }).set({ status: 'failed', attempt: 6 }).go();
    await expect(retryDelivery(deps, scope, endpoint.id, succeeded!.id)).rejects.toMatchObject({ code: 'cannot_retry', extras: { attempt: 6 } });
    await expect(retryDelivery(deps, { ...scope, environment: 'test' }, endpoint.id, succeeded!.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('is refused (cannot_retry) while the endpoint is disabled, without using an attempt', async () => {
    const endpoint = await endpointWithDeliveries(2);
    const scope = { workspaceId: endpoint.workspaceId, environment: 'live' as const };
    const [failed] = (await listDeliveries(principalIn(endpoint.workspaceId), endpoint.id, 'status=failed')).data;
    await deps.db.entities.webhookEndpoint.patch({ ...scope, id: endpoint.id }).set({ isActive: false }).go();
    await expect(retryDelivery(deps, scope, endpoint.id, failed!.id)).rejects.toMatchObject({ code: 'cannot_retry', extras: { current_state: 'failed', attempt: failed!.attempt } });
    expect(queue.take()).toEqual([]);
    await deps.db.entities.webhookEndpoint.patch({ ...scope, id: endpoint.id }).set({ isActive: true }).go();
    expect(await retryDelivery(deps, scope, endpoint.id, failed!.id)).toMatchObject({ status: 'pending', attempt: failed!.attempt + 1 });
  });
});

describe('a test send', () => {
  it('answers what the endpoint answered, and stores nothing', async () => {
    const workspaceId = newWorkspace();
    const ok = await startReceiver(() => ({ status: 202, body: 'got it' }));
    const down = await startReceiver(() => ({ status: 503, body: 'later' }));
    try {
      const good = await storeEndpoint(deps, { workspaceId, url: ok.url });
      const bad = await storeEndpoint(deps, { workspaceId, url: down.url });
      expect(await sendTestEvent(deps, good, local)).toMatchObject({ success: true, status_code: 202, response_body: 'got it' });
      expect(await sendTestEvent(deps, bad, local)).toMatchObject({ success: false, status_code: 503, response_body: 'later', error: 'The endpoint answered 503.' });
      expect(JSON.parse(ok.received[0]!.body)).toMatchObject({ type: 'webhook.test', workspace_id: workspaceId, data: { id: good.id, url: good.url } });
      expect(ok.received[0]!.headers['x-webhook-event']).toBe('webhook.test');
      expect((await deps.db.entities.webhookDelivery.query.byWebhook({ webhookId: good.id }).go()).data).toEqual([]);
    } finally {
      await Promise.all([ok.close(), down.close()]);
    }
  });

  it('reports a host resolving to a forbidden address without naming the address', async () => {
    const local127 = await startReceiver();
    try {
      const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: `https://localhost:${local127.port}/hook` });
      const result = await sendTestEvent(deps, endpoint, { ...local, allowInsecure: false });
      expect(result).toEqual({
        success: false,
        status_code: null,
        response_time_ms: expect.any(Number),
        error: "The URL's host resolves to an address that is not public; refused.",
      });
      expect(local127.received).toEqual([]);
    } finally {
      await local127.close();
    }
  });

  it('reports a connection failure as an error, without a status', async () => {
    const gone = await startReceiver();
    await gone.close();
    const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: gone.url });
    const result = await sendTestEvent(deps, endpoint, local);
    expect(result).toMatchObject({ success: false, status_code: null });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
