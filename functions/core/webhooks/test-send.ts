import type * as z from 'zod/mini';
import { eventRecordOf } from '#core/events/outbox';
import type { Deps } from '#core/ports/deps';
import type { WebhookEndpointItem } from '#core/store/items';
import { reserveAttempt, type ThrottlePolicy } from '#core/store/throttle-windows';
import { type DeliveryOptions, deliveryOptions } from './delivery-options.ts';
import type { testSendResult } from './delivery-schemas.ts';
import { webhookEndpointView } from './endpoint-view.ts';
import { receiverAnswered } from './outcome.ts';
import { type SendResult, send } from './sender.ts';
import { signedHeadersFor } from './signing-secrets.ts';

/**
 * Test sends per webhook endpoint: each is a request to the endpoint's host and port made
 * at once, so without a limit the route would probe them.
 */
export const webhookTestThrottle = { limit: 10, windowSeconds: 60 } as const satisfies ThrottlePolicy;

/** A test send answers within API Gateway's 29 seconds: it waits at most this long, or the delivery timeout if shorter. */
const testTimeoutMs = 20_000;

/**
 * POST /webhooks/{id}/test: a `webhook.test` event whose `data` is the endpoint, signed as
 * every delivery is and sent at once to this endpoint only (active or not), neither stored nor
 * retried. At most 10 a minute per endpoint, counted in the table whichever process serves
 * them.
 */
export async function sendTestEvent(
  deps: Deps,
  endpoint: WebhookEndpointItem,
  overrides: Partial<DeliveryOptions> = {},
): Promise<z.output<typeof testSendResult>> {
  const options = deliveryOptions(overrides);
  const { limit, windowSeconds } = webhookTestThrottle;
  const refusal = `Too many test sends: at most ${limit} test sends per webhook endpoint every ${windowSeconds} seconds; wait before trying again.`;
  await reserveAttempt(deps, `webhook-test:${endpoint.id}`, webhookTestThrottle, refusal);
  const now = deps.clock.now();
  // Never written: the record is only how every event's envelope is made.
  const { id, body } = eventRecordOf({ type: 'webhook.test', origin: endpoint, data: webhookEndpointView(endpoint) }, now);
  const signed = signedHeadersFor(deps.webhookSecrets, endpoint, { eventId: id, eventType: 'webhook.test', body }, now);
  const result: SendResult =
    'error' in signed
      ? { error: signed.error, responseTimeMs: 0 }
      : await send({
          url: endpoint.url,
          headers: signed.headers,
          body,
          timeoutMs: Math.min(options.timeoutMs, testTimeoutMs),
          allowInsecure: options.allowInsecure,
        });
  const status = result.statusCode;
  const success = status !== undefined && status >= 200 && status < 300;
  return {
    success,
    status_code: status ?? null,
    response_time_ms: result.responseTimeMs,
    ...(result.responseExcerpt !== undefined ? { response_body: result.responseExcerpt } : {}),
    ...(success ? {} : { error: result.error ?? `${receiverAnswered(status!)}.` }),
  };
}
