import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  /** The URL's path, telling endpoints on one receiver apart. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** The status this receiver answered. */
  answered: number;
  /** When it arrived (epoch ms). */
  receivedAt: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`: add a path per endpoint. */
  origin: string;
  received: ReceivedWebhook[];
  /** What the next requests to `path` are answered (then 200 for good); every request is recorded first. */
  answer(path: string, statuses: number[]): void;
  /** Resolves once `count` requests matching `which` have arrived; fails after `timeoutMs`. */
  waitFor(count: number, which?: (hook: ReceivedWebhook) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1, as a customer would run one. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const scripted = new Map<string, number[]>();
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const answered = scripted.get(path)?.shift() ?? 200;
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered, receivedAt: Date.now() });
      response.writeHead(answered, { 'Content-Type': 'text/plain' }).end(`answered ${answered}`);
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answer: (path, statuses) => void scripted.set(path, [...statuses]),
    waitFor: (count, which = () => true, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const matching = received.filter(which);
          if (matching.length < count) return;
          cleanUp();
          resolve(matching);
        };
        const timer = setTimeout(() => {
          cleanUp();
          reject(new Error(`Expected ${count} webhooks within ${timeoutMs} ms, got ${received.filter(which).length}`));
        }, timeoutMs);
        const cleanUp = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise((closed) => server.close(() => closed()));
    },
  };
}

const header = (hook: ReceivedWebhook, name: string): string => {
  const value = hook.headers[name];
  if (typeof value !== 'string') throw new Error(`The webhook has no ${name} header`);
  return value;
};

/**
 * Verifies a webhook as a receiver following the README would, with both schemes and
 * `secret`: Standard Webhooks with the `standardwebhooks` package, and X-Webhook-Signature
 * by recomputing the hex HMAC of `<timestamp>.<body>` and comparing in constant time.
 * Throws unless both hold; returns the envelope.
 */
export function verifyWebhook(hook: ReceivedWebhook, secret: string) {
  const envelope = new Webhook(secret).verify(hook.body, {
    'webhook-id': header(hook, 'webhook-id'),
    'webhook-timestamp': header(hook, 'webhook-timestamp'),
    'webhook-signature': header(hook, 'webhook-signature'),
  }) as { id: string; type: string; created_at: string; workspace_id: string; data: Record<string, unknown> };
  const timestamp = header(hook, 'x-webhook-timestamp');
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${hook.body}`).digest('hex'));
  const offered = header(hook, 'x-webhook-signature').split(/[ ,]+/).map((s) => Buffer.from(s));
  if (!offered.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected))) {
    throw new Error('X-Webhook-Signature does not match');
  }
  if (header(hook, 'x-webhook-id') !== envelope.id || header(hook, 'x-webhook-event') !== envelope.type) {
    throw new Error('X-Webhook-Id / X-Webhook-Event do not match the envelope');
  }
  return envelope;
}
