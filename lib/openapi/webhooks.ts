import type * as z from 'zod/mini';
import { type EventType, eventTypeNames, eventTypes } from '#core/events/event-types';
import type { JsonSchema } from '#core/platform/error-catalogue';
import { typedEnvelopes } from '../../functions/event-payloads.ts';

/**
 * The `webhooks` side of openapi.yaml: one entry per type of the event catalogue, the POST a
 * subscribed endpoint receives, with the envelope of that type and the signature headers.
 */

/** `api_key.rotated` is received by the operation apiKeyRotated. */
const operationIdOf = (type: EventType) => type.replace(/[._]([a-z])/g, (_, letter: string) => letter.toUpperCase());

const header = (name: string, description: string, pattern?: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', ...(pattern ? { pattern } : {}) },
});

/** The headers of every delivery: the spec's X-Webhook-* and the Standard Webhooks ones. */
export const webhookHeaderParameters = {
  XWebhookId: header('X-Webhook-Id', 'The event id (`evt_…`), the same in every delivery of the event: de-duplicate by it.'),
  XWebhookEvent: header('X-Webhook-Event', 'The event type.'),
  XWebhookTimestamp: header('X-Webhook-Timestamp', 'Unix seconds when this attempt was signed.', '^\\d+$'),
  XWebhookSignature: header(
    'X-Webhook-Signature',
    'Lowercase hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>` keyed with the endpoint secret; during a secret rotation two, the new one first, separated by a comma (`<new>,<old>`).',
  ),
  WebhookIdStandard: header('webhook-id', 'Standard Webhooks: the event id.'),
  WebhookTimestampStandard: header('webhook-timestamp', 'Standard Webhooks: Unix seconds, as X-Webhook-Timestamp.', '^\\d+$'),
  WebhookSignatureStandard: header(
    'webhook-signature',
    'Standard Webhooks: `v1,<base64 HMAC-SHA256 of <id>.<timestamp>.<raw body>>` keyed with the base64-decoded part of the `whsec_` secret; space-separated when two secrets sign.',
  ),
};

const parameterRefs = Object.keys(webhookHeaderParameters).map((name) => ({ $ref: `#/components/parameters/${name}` }));

/** `schemaOf` registers a named schema among the components and answers its reference. */
export function webhooksOf(schemaOf: (schema: z.ZodMiniType, io: 'input' | 'output') => JsonSchema) {
  return Object.fromEntries(
    eventTypeNames.map((type) => [
      type,
      {
        post: {
          operationId: operationIdOf(type),
          summary: type,
          description: eventTypes[type].description,
          tags: ['Events'],
          security: [],
          parameters: parameterRefs,
          requestBody: { required: true, content: { 'application/json': { schema: schemaOf(typedEnvelopes[type], 'output') } } },
          responses: {
            '2XX': { description: 'Received: the delivery succeeded.' },
            '4XX': { description: 'Refused: the delivery fails at once, without retries.' },
            '5XX': { description: 'The delivery is retried on the ladder (as after a timeout or a failed connection).' },
          },
        },
      },
    ]),
  );
}
