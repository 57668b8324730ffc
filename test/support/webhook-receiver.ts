import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { type Received, startReceiver } from './webhooks.ts';

export interface ReceivedWebhook extends Received {
  /** The status this receiver answered. */
  answered: number;
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

/** A webhook receiver on 127.0.0.1, as a customer would run one, answering by path from a script. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const scripted = new Map<string, number[]>();
  const waiters = new Set<() => void>();
  const server = await startReceiver((got) => {
    const answered = scripted.get(got.path)?.shift() ?? 200;
    received.push({ ...got, answered });
    queueMicrotask(() => {
      for (const wake of waiters) wake();
    });
    return { status: answered, body: `answered ${answered}` };
  });
  return {
    origin: server.origin,
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
    close: server.close,
  };
}

const header = (hook: Received, name: string): string => {
  const value = hook.headers[name];
  if (typeof value !== 'string') throw new Error(`The webhook has no ${name} header`);
  return value;
};

/**
 * Verifies a webhook as docs/webhooks.md tells a receiver to, by both schemes (Standard
 * Webhooks, and X-Webhook-Signature in constant time); throws unless both hold.
 */
export function verifyWebhook(hook: Received, secret: string) {
  const envelope = new Webhook(secret).verify(hook.body, {
    'webhook-id': header(hook, 'webhook-id'),
    'webhook-timestamp': header(hook, 'webhook-timestamp'),
    'webhook-signature': header(hook, 'webhook-signature'),
  }) as { id: string; type: string; created_at: string; workspace_id: string; data: Record<string, unknown> };
  const timestamp = header(hook, 'x-webhook-timestamp');
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${hook.body}`).digest('hex'));
  const offered = header(hook, 'x-webhook-signature')
    .split(',')
    .map((s) => Buffer.from(s.trim()));
  if (!offered.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected))) {
    throw new Error('X-Webhook-Signature does not match');
  }
  if (header(hook, 'x-webhook-id') !== envelope.id || header(hook, 'x-webhook-event') !== envelope.type) {
    throw new Error('X-Webhook-Id / X-Webhook-Event do not match the envelope');
  }
  return envelope;
}
