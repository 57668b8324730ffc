import type { Principal } from '#core/access/principal';
import { emitEvents } from '#core/events/outbox';
import type { Route } from '#core/http/route-types';
import { CannotRetry, NotFound, RateLimited } from '#core/platform/errors';
import { attemptDelivery } from '#core/webhooks/attempt';
import { getDelivery, retryDelivery } from '#core/webhooks/deliveries';
import type { DeliveryOptions } from '#core/webhooks/delivery-options';
import { getWebhookEndpoint } from '#core/webhooks/endpoints';
import { fanOut } from '#core/webhooks/fan-out';
import { sendTestEvent } from '#core/webhooks/test-send';
import { routes } from '#routes';
import { webhookDeliveryHandlers } from '../../functions/webhook-deliveries/handlers.ts';
import type { TestDeps } from '../support/deps.ts';
import { startReceiver, storeEndpoint, type WebhookTestDeps, webhookTestDeps } from '../support/webhooks.ts';

const local: DeliveryOptions = { allowInsecure: true, retryScale: 1, timeoutMs: 5_000, disableAfter: 1_000 };

let deps: TestDeps;
let clock: WebhookTestDeps['clock'];
let queue: WebhookTestDeps['queue'];
let scheduler: WebhookTestDeps['scheduler'];
let relayed: string[];
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** The receiver answers each event by the number in its data: even 200, odd 400. */
const answerOf = (body: string) => ((JSON.parse(body) as { data: { n: number } }).data.n % 2 ? 400 : 200);

beforeAll(async () => {
  ({ deps, clock, queue, scheduler, relayed } = await webhookTestDeps());
  receiver = await startReceiver(({ body }) => ({ status: answerOf(body), body: 'thanks' }));
});
const scriptedReceivers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all([receiver, ...scriptedReceivers].map((r) => r.close()));
  await deps.close();
});

let workspaces = 0;
const newWorkspace = () => `wks_TEST${String(++workspaces).padStart(22, '0')}`;
const principalIn = (workspaceId: string, environment: 'live' | 'test' = 'live'): Principal => ({
  userId: 1,
  workspaceId,
  role: 'owner',
  environment,
  scopes: ['*'],
  tier: 'pro',
  credential: { type: 'api_key', id: 'key_test' },
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
  const request = {
    principal,
    workspaceId: principal.workspaceId,
    params: { id },
    query: route.query!.parse(Object.fromEntries(url.searchParams)),
    route,
    url,
  };
  const response = await webhookDeliveryHandlers.listWebhookDeliveries(request as never, deps);
  return response.body as {
    data: { id: string; status: string; event_id: string; attempt: number }[];
    meta: { total: number; to: number | null };
    links: { next: string | null };
  };
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

  it("filters by status from its index, with that status's total", async () => {
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
    expect((await listDeliveries(principalIn(endpoint.workspaceId), endpoint.id, 'status=pending')).data.map((d) => d.id)).toEqual([
      failed!.id,
    ]);
    // Still pending: its attempt is on its way.
    await expect(retryDelivery(deps, scope, endpoint.id, failed!.id)).rejects.toBeInstanceOf(CannotRetry);
  });

  it('is refused (cannot_retry) for a delivery that succeeded or used all six attempts, and 404 elsewhere', async () => {
    const endpoint = await endpointWithDeliveries(1);
    const scope = { workspaceId: endpoint.workspaceId, environment: 'live' as const };
    const [succeeded] = (await listDeliveries(principalIn(endpoint.workspaceId), endpoint.id)).data;
    await expect(retryDelivery(deps, scope, endpoint.id, succeeded!.id)).rejects.toMatchObject({
      code: 'cannot_retry',
      status: 400,
      extras: { current_state: 'success' },
    });
    await deps.db.entities.webhookDelivery.patch({ webhookId: endpoint.id, id: succeeded!.id }).set({ status: 'failed', attempt: 6 }).go();
    await expect(retryDelivery(deps, scope, endpoint.id, succeeded!.id)).rejects.toMatchObject({
      code: 'cannot_retry',
      extras: { attempt: 6 },
    });
    await expect(retryDelivery(deps, { ...scope, environment: 'test' }, endpoint.id, succeeded!.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('of two racing ones, is accepted once; the other is cannot_retry showing the delivery as GET does', async () => {
    const endpoint = await endpointWithDeliveries(2);
    const scope = { workspaceId: endpoint.workspaceId, environment: 'live' as const };
    const [failed] = (await listDeliveries(principalIn(endpoint.workspaceId), endpoint.id, 'status=failed')).data;
    const settled = await Promise.allSettled([0, 1].map(() => retryDelivery(deps, scope, endpoint.id, failed!.id)));
    expect(settled.filter((s) => s.status === 'fulfilled')).toEqual([
      { status: 'fulfilled', value: { id: failed!.id, status: 'pending', attempt: 2 } },
    ]);
    const shown = await getDelivery(deps, scope, endpoint.id, failed!.id);
    expect(settled.filter((s) => s.status === 'rejected')).toMatchObject([
      { status: 'rejected', reason: { code: 'cannot_retry', extras: { current_state: shown.status, attempt: shown.attempt } } },
    ]);
    expect(queue.take()).toHaveLength(1);
  });

  it('is refused (cannot_retry) while the endpoint is disabled, without using an attempt', async () => {
    const endpoint = await endpointWithDeliveries(2);
    const scope = { workspaceId: endpoint.workspaceId, environment: 'live' as const };
    const [failed] = (await listDeliveries(principalIn(endpoint.workspaceId), endpoint.id, 'status=failed')).data;
    await deps.db.entities.webhookEndpoint
      .patch({ ...scope, id: endpoint.id })
      .set({ isActive: false })
      .go();
    await expect(retryDelivery(deps, scope, endpoint.id, failed!.id)).rejects.toMatchObject({
      code: 'cannot_retry',
      extras: { current_state: 'failed', attempt: failed!.attempt },
    });
    expect(queue.take()).toEqual([]);
    await deps.db.entities.webhookEndpoint
      .patch({ ...scope, id: endpoint.id })
      .set({ isActive: true })
      .go();
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
      expect(await sendTestEvent(deps, bad, local)).toMatchObject({
        success: false,
        status_code: 503,
        response_body: 'later',
        error: 'The receiver answered 503 Service Unavailable.',
      });
      expect(JSON.parse(ok.received[0]!.body)).toMatchObject({
        type: 'webhook.test',
        workspace_id: workspaceId,
        data: { id: good.id, url: good.url },
      });
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

/** An endpoint of a fresh workspace on a receiver that answers each request with `answer.status`, which the test changes. */
async function scriptedEndpoint(answer: { status: number }) {
  const target = await startReceiver(() => ({ status: answer.status, body: `answered ${answer.status}` }));
  scriptedReceivers.push(target);
  const endpoint = await storeEndpoint(deps, { workspaceId: newWorkspace(), url: target.url });
  return { ...endpoint, scope: { workspaceId: endpoint.workspaceId, environment: 'live' as const }, received: target.received };
}

/** One event to the endpoint, fanned out; the id of its delivery, whose first attempt is queued (not made). */
async function queueDelivery(endpoint: { workspaceId: string; id: string }) {
  clock.advance(1000);
  await emitEvents(deps, [
    { type: 'workspace.updated', origin: { workspaceId: endpoint.workspaceId, environment: 'live' }, data: { n: 0 } },
  ]);
  await fanOut(deps, [relayed[relayed.length - 1]!]);
  return queue.sent.find((q) => q.message.webhookId === endpoint.id)!.message.deliveryId;
}

/** Makes every attempt the queue holds now, each once (or `copies` times at once, as duplicates of an at-least-once queue). */
async function runQueue(options: Partial<DeliveryOptions> = {}, copies = 1) {
  for (const { message } of queue.take()) {
    await Promise.all(Array.from({ length: copies }, () => attemptDelivery(deps, message, { ...local, ...options })));
  }
}

const countersOf = async (endpoint: { scope: { workspaceId: string; environment: 'live' }; id: string }) => {
  const { success_count, failure_count, consecutive_failures, is_active } = await getWebhookEndpoint(deps, endpoint.scope, endpoint.id);
  return { success_count, failure_count, consecutive_failures, is_active };
};

describe("an endpoint's counters count deliveries, not attempts", () => {
  it('count a failed delivery once however many manual retries of it fail, so retries never disable the endpoint', async () => {
    const answer = { status: 410 };
    const endpoint = await scriptedEndpoint(answer);
    const deliveryId = await queueDelivery(endpoint);
    await runQueue({ disableAfter: 3 });
    for (let retry = 0; retry < 5; retry++) {
      await retryDelivery(deps, endpoint.scope, endpoint.id, deliveryId);
      await runQueue({ disableAfter: 3 });
    }
    expect(endpoint.received).toHaveLength(6);
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject({ status: 'failed', attempt: 6 });
    expect(await countersOf(endpoint)).toEqual({ success_count: 0, failure_count: 1, consecutive_failures: 1, is_active: true });
  });

  it('move a delivery from failure_count to success_count when a manual retry succeeds, and reset consecutive_failures', async () => {
    const answer = { status: 422 };
    const endpoint = await scriptedEndpoint(answer);
    const first = await queueDelivery(endpoint);
    await queueDelivery(endpoint);
    await runQueue();
    expect(await countersOf(endpoint)).toEqual({ success_count: 0, failure_count: 2, consecutive_failures: 2, is_active: true });
    answer.status = 200;
    await retryDelivery(deps, endpoint.scope, endpoint.id, first);
    await runQueue();
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, first)).toMatchObject({ status: 'success', attempt: 2 });
    expect(await countersOf(endpoint)).toEqual({ success_count: 1, failure_count: 1, consecutive_failures: 0, is_active: true });
  });

  it('count each end once when copies of a message race, for a first attempt and a manual retry alike', async () => {
    const answer = { status: 400 };
    const endpoint = await scriptedEndpoint(answer);
    const deliveryId = await queueDelivery(endpoint);
    const [original] = queue.sent;
    await runQueue({}, 3);
    await retryDelivery(deps, endpoint.scope, endpoint.id, deliveryId);
    await runQueue({}, 3);
    await attemptDelivery(deps, original!.message, local); // a stale copy, long after
    expect(await countersOf(endpoint)).toEqual({ success_count: 0, failure_count: 1, consecutive_failures: 1, is_active: true });
    answer.status = 204;
    await retryDelivery(deps, endpoint.scope, endpoint.id, deliveryId);
    await runQueue({}, 3);
    expect(endpoint.received).toHaveLength(3);
    expect(await countersOf(endpoint)).toEqual({ success_count: 1, failure_count: 0, consecutive_failures: 0, is_active: true });
  });

  it('count a manual retry that goes on up the ladder once, when it ends', async () => {
    const answer = { status: 400 };
    const endpoint = await scriptedEndpoint(answer);
    const deliveryId = await queueDelivery(endpoint);
    await runQueue();
    answer.status = 503;
    await retryDelivery(deps, endpoint.scope, endpoint.id, deliveryId);
    await runQueue();
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject({ status: 'retrying', attempt: 2 });
    answer.status = 400;
    clock.advance(300_000);
    await runQueue();
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject({ status: 'failed', attempt: 3 });
    expect(await countersOf(endpoint)).toEqual({ success_count: 0, failure_count: 1, consecutive_failures: 1, is_active: true });
  });

  it('count a delivery that failed on a disabled endpoint when a retry after re-enabling it ends, once', async () => {
    const answer = { status: 400 };
    const endpoint = await scriptedEndpoint(answer);
    const deliveryId = await queueDelivery(endpoint);
    await deps.db.entities.webhookEndpoint
      .patch({ ...endpoint.scope, id: endpoint.id })
      .set({ isActive: false })
      .go();
    await runQueue();
    expect(await countersOf(endpoint)).toEqual({ success_count: 0, failure_count: 0, consecutive_failures: 0, is_active: false });
    await deps.db.entities.webhookEndpoint
      .patch({ ...endpoint.scope, id: endpoint.id })
      .set({ isActive: true })
      .go();
    await retryDelivery(deps, endpoint.scope, endpoint.id, deliveryId);
    await runQueue();
    expect(await countersOf(endpoint)).toEqual({ success_count: 0, failure_count: 1, consecutive_failures: 1, is_active: true });
  });
});

describe('a delivery of a type its endpoint no longer subscribes to', () => {
  it('is refused a manual retry (cannot_retry) without using an attempt; one retried just before the change ends unsent, counting nothing', async () => {
    const endpoint = await scriptedEndpoint({ status: 400 });
    const elsewhere = await startReceiver();
    scriptedReceivers.push(elsewhere);
    const key = { ...endpoint.scope, id: endpoint.id };
    const deliveryId = await queueDelivery(endpoint);
    await runQueue();
    const failed = { status: 'failed', attempt: 1 };
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject(failed);
    const counted = { success_count: 0, failure_count: 1, consecutive_failures: 1, is_active: true };
    expect(await countersOf(endpoint)).toEqual(counted);

    // Narrowed to what webhooks:read reads, then pointed at another receiver.
    await deps.db.entities.webhookEndpoint
      .patch(key)
      .set({ events: ['webhook.*'], url: elsewhere.url })
      .go();
    await expect(retryDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).rejects.toMatchObject({
      code: 'cannot_retry',
      status: 400,
      message:
        "The endpoint no longer subscribes to workspace.updated: a delivery is sent only while its endpoint subscribes to its event's type.",
      extras: { current_state: 'failed', attempt: 1 },
    });
    expect(queue.take()).toEqual([]);
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject(failed);

    // Subscribed again, a retry is accepted; narrowed before its attempt, the attempt ends it unsent.
    await deps.db.entities.webhookEndpoint
      .patch(key)
      .set({ events: ['workspace.*'] })
      .go();
    expect(await retryDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toEqual({ id: deliveryId, status: 'pending', attempt: 2 });
    await deps.db.entities.webhookEndpoint
      .patch(key)
      .set({ events: ['webhook.*'] })
      .go();
    await runQueue({ disableAfter: 2 });
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject({
      status: 'failed',
      attempt: 2,
      error: 'The endpoint no longer subscribes to workspace.updated; the delivery ended unsent.',
    });
    expect(elsewhere.received).toEqual([]);
    expect(endpoint.received).toHaveLength(1);
    expect(await countersOf(endpoint)).toEqual(counted);
  });
});

describe('a delivery as GET /webhooks/{id}/deliveries/{delivery_id} shows it', () => {
  it('counts the attempts made, as a refused retry does: retrying after 5 failed attempts is attempt 5 with next_retry_at; the 6th failing ends it at 6', async () => {
    const endpoint = await scriptedEndpoint({ status: 500 });
    const deliveryId = await queueDelivery(endpoint);
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject({ status: 'pending', attempt: 1, attempts: 1 });
    let message = queue.take()[0]!.message;
    for (let made = 1; made <= 5; made++) {
      await attemptDelivery(deps, message, local);
      const shown = await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId);
      expect(shown).toMatchObject({
        status: 'retrying',
        attempt: made,
        attempts: made,
        response_code: 500,
        next_retry_at: expect.any(String),
      });
      // A refused manual retry shows the same count as GET, not the number of the attempt awaited.
      await expect(retryDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).rejects.toMatchObject({
        code: 'cannot_retry',
        extras: { current_state: 'retrying', attempt: made },
      });
      expect(shown.attempt_history.map((a) => a.attempt)).toEqual(Array.from({ length: made }, (_, i) => i + 1));
      const next = queue.take()[0] ?? scheduler.take()[0]!;
      message = next.message;
      clock.advance(Date.parse(shown.next_retry_at!) - clock.now().getTime());
    }
    await attemptDelivery(deps, message, local);
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject({
      status: 'failed',
      attempt: 6,
      next_retry_at: null,
      error: 'The receiver answered 500 Internal Server Error to the last of 6 attempts.',
    });
  });

  it.each([
    [410, 'The receiver answered 410 Gone; a 4xx ends the delivery without retries.'],
    [400, 'The receiver answered 400 Bad Request; a 4xx ends the delivery without retries.'],
    [301, 'The receiver answered 301 Moved Permanently; redirects are not followed, so a 3xx ends the delivery without retries.'],
    [503, 'The receiver answered 503 Service Unavailable; the delivery is tried again at next_retry_at.'],
  ])('records what the receiver answered when it answered %s, on the delivery and in its history', async (status, error) => {
    const endpoint = await scriptedEndpoint({ status });
    const deliveryId = await queueDelivery(endpoint);
    await runQueue();
    const shown = await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId);
    expect(shown).toMatchObject({
      status: status === 503 ? 'retrying' : 'failed',
      attempt: 1,
      response_code: status,
      response_excerpt: `answered ${status}`,
      error,
    });
    expect(shown.attempt_history).toEqual([
      { attempt: 1, at: expect.any(String), status_code: status, error, response_time_ms: expect.any(Number) },
    ]);
  });

  it('clears the error when a later attempt succeeds', async () => {
    const answer = { status: 503 };
    const endpoint = await scriptedEndpoint(answer);
    const deliveryId = await queueDelivery(endpoint);
    await runQueue();
    answer.status = 200;
    clock.advance(60_000);
    await runQueue();
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject({
      status: 'success',
      attempt: 2,
      error: null,
      response_code: 200,
    });
  });

  it('answers 404 for a delivery of another endpoint, workspace or environment, and for one that never was', async () => {
    const endpoint = await scriptedEndpoint({ status: 200 });
    const deliveryId = await queueDelivery(endpoint);
    const sibling = await storeEndpoint(deps, { workspaceId: endpoint.workspaceId, url: endpoint.url });
    const strangers: [string, { workspaceId: string; environment: 'live' | 'test' }, string, string][] = [
      ['another endpoint of the workspace', endpoint.scope, sibling.id, deliveryId],
      ['the test environment', { ...endpoint.scope, environment: 'test' }, endpoint.id, deliveryId],
      ['another workspace', { workspaceId: newWorkspace(), environment: 'live' }, endpoint.id, deliveryId],
      ['a delivery that never was', endpoint.scope, endpoint.id, 'del_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ];
    for (const [who, scope, webhookId, id] of strangers) {
      const refused = await getDelivery(deps, scope, webhookId, id).catch((error: unknown) => error);
      expect([who, refused]).toEqual([who, expect.any(NotFound)]);
    }
    expect(await getDelivery(deps, endpoint.scope, endpoint.id, deliveryId)).toMatchObject({
      id: deliveryId,
      webhook_id: endpoint.id,
      status: 'pending',
    });
  });
});

describe('test sends', () => {
  it('are limited to 10 a minute per endpoint, across racing requests; the 11th is 429 with retry_after, other endpoints unaffected', async () => {
    const endpoint = await scriptedEndpoint({ status: 200 });
    const other = await scriptedEndpoint({ status: 200 });
    clock.advance(60_000 - (clock.now().getTime() % 60_000) + 15_000); // 15 s into a minute
    const sends = await Promise.allSettled(Array.from({ length: 12 }, () => sendTestEvent(deps, endpoint, local)));
    expect(sends.filter((s) => s.status === 'fulfilled')).toHaveLength(10);
    const refused = sends.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as RateLimited);
    expect(refused).toHaveLength(2);
    expect(refused[0]).toBeInstanceOf(RateLimited);
    expect(refused[0]).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      extras: { retry_after: 45, limit: 10, remaining: 0 },
      headers: { 'Retry-After': '45' },
    });
    expect(refused[0]!.message).toMatch(/10 test sends per webhook endpoint/);
    expect(endpoint.received).toHaveLength(10);
    expect(await sendTestEvent(deps, other, local)).toMatchObject({ success: true });
    clock.advance(45_000);
    expect(await sendTestEvent(deps, endpoint, local)).toMatchObject({ success: true });
  });
});
