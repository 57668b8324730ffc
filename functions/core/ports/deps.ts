import type { Clock } from '#core/platform/clock';
import type { Database } from '#core/store/database';
import type { GatewayKeys } from './gateway-keys.ts';
import type { Mailer } from './mailer.ts';
import type { RouteInvoker } from './route-invoker.ts';
import type { DeliveryQueue, EventRelay, RetryScheduler } from './webhook-delivery.ts';
import type { WebhookSecretBox } from './webhook-secrets.ts';

/** Password and key hashing, behind an interface so that the bench can count verifications. */
export interface Hasher {
  hash(plain: string): Promise<string>;
  compare(plain: string, hash: string): Promise<boolean>;
}

/**
 * What domain code needs from the outside world; handed in, never imported. Each port has
 * its AWS adapter and a local one (docs/architecture.md, Ports), with its default in adapters/create-deps.ts.
 */
export interface Deps {
  db: Database;
  clock: Clock;
  hasher: Hasher;
  mailer: Mailer;
  /** Each workspace's API Gateway key in its tier's usage plan. */
  gatewayKeys: GatewayKeys;
  /** Asks for committed events to be fanned out (core/ports/webhook-delivery.ts). */
  eventRelay: EventRelay;
  deliveryQueue: DeliveryQueue;
  retryScheduler: RetryScheduler;
  /** Seals and opens webhook endpoints' signing secrets under keys kept outside the table (WEBHOOK_SECRET_KEYS). */
  webhookSecrets: WebhookSecretBox;
  /** Runs a request in the function that serves its route (an MCP tool call). */
  routeInvoker: RouteInvoker;
}
