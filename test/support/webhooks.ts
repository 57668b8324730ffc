import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Environment } from '#core/platform/environments';
import { newId } from '#core/platform/ids';
import type { Deps } from '#core/ports/deps';
import type { DeliveryMessage, DeliveryQueue, RetryScheduler } from '#core/ports/webhook-delivery';
import { type EndpointOwner, loadWebhookEndpoint } from '#core/webhooks/endpoint-view';
import { manualClock, testDeps } from './deps.ts';

/** A delivery queue that records what it was asked to send, and when (by the deps' clock). */
function recordingQueue(clock: { now(): Date }) {
  const sent: { message: DeliveryMessage; delaySeconds: number; at: Date }[] = [];
  let failing = false;
  const queue: DeliveryQueue & { sent: typeof sent; fail(on: boolean): void; take(): typeof sent } = {
    sent,
    fail: (on) => void (failing = on),
    /** The messages sent since the last take. */
    take: () => sent.splice(0, sent.length),
    send: async (messages, delaySeconds) => {
      if (failing) throw new Error('the queue is down');
      for (const message of messages) sent.push({ message, delaySeconds, at: clock.now() });
    },
  };
  return queue;
}

function recordingScheduler() {
  const scheduled: { message: DeliveryMessage; at: Date }[] = [];
  const scheduler: RetryScheduler & { scheduled: typeof scheduled; take(): typeof scheduled } = {
    scheduled,
    take: () => scheduled.splice(0, scheduled.length),
    schedule: async (message, at) => void scheduled.push({ message, at }),
  };
  return scheduler;
}

/**
 * Deps for the webhook machinery on its own table: a manual clock set to the wall clock's
 * second (DynamoDB Local's TTL removes items whose ttl has passed by the wall clock), a
 * recording queue and scheduler, and a relay that records the event ids it is given.
 */
export type WebhookTestDeps = Awaited<ReturnType<typeof webhookTestDeps>>;

export async function webhookTestDeps() {
  const clock = manualClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  const queue = recordingQueue(clock);
  const scheduler = recordingScheduler();
  const relayed: string[] = [];
  const deps = await testDeps({
    clock,
    deliveryQueue: queue,
    retryScheduler: scheduler,
    eventRelay: { relay: async (ids) => void relayed.push(...ids) },
  });
  return { deps, clock, queue, scheduler, relayed };
}

export interface Received {
  /** The URL's path, telling endpoints on one receiver apart. */
  path: string;
  headers: IncomingMessage['headers'];
  /** The raw body, as signed. */
  body: string;
  /** When it arrived (epoch ms). */
  receivedAt: number;
}

/** A receiver on 127.0.0.1 that answers each request with what `answer` says (by default 200), and keeps what it got. */
export async function startReceiver(
  answer: (received: Received) => { status: number; body?: string } = () => ({ status: 200, body: 'ok' }),
) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const got = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      received.push(got);
      const { status, body } = answer(got);
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(body ?? '');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((closed) => server.close(() => closed()));
  };
  return { url: `http://127.0.0.1:${port}/hook`, origin: `http://127.0.0.1:${port}`, port, received, close };
}

export interface TestEndpoint {
  workspaceId: string;
  environment?: Environment;
  url: string;
  events?: string[];
  isActive?: boolean;
  secret?: string;
}

export const testSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** An endpoint written straight to the store (the endpoints API is another function's). */
export async function storeEndpoint(deps: Deps, input: TestEndpoint) {
  const now = deps.clock.now().toISOString();
  const item = {
    id: newId('webhook', deps.clock.now()),
    workspaceId: input.workspaceId,
    environment: input.environment ?? 'live',
    url: input.url,
    events: input.events ?? ['*'],
    isActive: input.isActive ?? true,
    successCount: 0,
    failureCount: 0,
    consecutiveFailures: 0,
    createdAt: now,
    updatedAt: now,
  } as const;
  const sealedSecret = deps.webhookSecrets.seal(input.secret ?? testSecret, item.id, 'secret');
  await deps.db.entities.webhookEndpoint.create({ ...item, events: [...item.events], sealedSecret }).go();
  return { ...item, sealedSecret };
}

/** An endpoint's secrets as stored, opened as a delivery opens them. */
export async function openedSecretsOf(deps: Deps, owner: EndpointOwner, id: string) {
  const { sealedSecret, sealedPreviousSecret, previousSecretExpiresAt } = await loadWebhookEndpoint(deps, owner, id);
  return {
    secret: deps.webhookSecrets.open(sealedSecret, id, 'secret'),
    previousSecret: sealedPreviousSecret === undefined ? undefined : deps.webhookSecrets.open(sealedPreviousSecret, id, 'previousSecret'),
    previousSecretExpiresAt,
  };
}
