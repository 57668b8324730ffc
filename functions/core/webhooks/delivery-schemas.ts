import * as z from 'zod/mini';
import { idOf, timestamp } from '#core/platform/common-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';
import { deliveryStatuses } from '#core/store/entities/delivery-status';
import { attemptsKept, responseExcerptBytes } from './delivery-history.ts';
import { maxAttempts } from './ladder.ts';

// The deliveries' routes (/webhooks/{id}/deliveries/…) take their endpoint's id.
export { webhookId } from './endpoint-schemas.ts';

export const deliveryId = idOf('delivery', 'a delivery id');

/** English ordinals by plural category: 1st, 2nd, 3rd, 4th, 11th, 21st. */
const ordinalSuffixes: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const ordinalRules = new Intl.PluralRules('en', { type: 'ordinal' });
const ordinal = (n: number) => `${n}${ordinalSuffixes[ordinalRules.select(n)]}`;

export const attemptRecord = withMeta(
  z.object({
    attempt: z.int().check(z.gte(1)),
    at: timestamp,
    status_code: z.optional(z.int()),
    error: z.optional(z.string()),
    response_time_ms: z.int().check(z.gte(0)),
  }),
  { id: 'WebhookDeliveryAttempt', description: 'One attempt of a delivery: when, and what the receiver answered or why it did not.' },
);

export const webhookDelivery = withMeta(
  z.object({
    id: z.string(),
    webhook_id: z.string(),
    event_id: describe(z.string(), 'The event delivered; the same on every attempt and every endpoint: receivers de-duplicate by it.'),
    event_type: z.string(),
    status: describe(
      z.enum(deliveryStatuses),
      'pending, retrying (next_retry_at set), success, or failed (for good, unless retried by hand).',
    ),
    attempt: describe(
      z.int().check(z.gte(1), z.lte(maxAttempts)),
      `Attempts made, 1 to ${maxAttempts}, counting while pending the one queued: a delivery retrying after ${maxAttempts - 1} failed attempts shows ${maxAttempts - 1}, the ${ordinal(maxAttempts)} due at next_retry_at.`,
    ),
    attempts: describe(z.int().check(z.gte(1), z.lte(maxAttempts)), 'The same as `attempt`.'),
    response_code: describe(z.nullable(z.int()), "The receiver's HTTP status at the last attempt; null if it did not answer."),
    status_code: describe(z.nullable(z.int()), 'The same as `response_code`.'),
    response_excerpt: describe(
      z.nullable(z.string()),
      `The start (${responseExcerptBytes / 1024} KiB) of the receiver's answer to the last attempt.`,
    ),
    error: describe(
      z.nullable(z.string()),
      'Why the last attempt failed: what the receiver answered and what follows (a 4xx or 3xx ends the delivery), or why there was no answer (timeout, connection, address refused).',
    ),
    response_time_ms: z.nullable(z.int().check(z.gte(0))),
    attempt_history: describe(z.array(attemptRecord), `The last ${attemptsKept} attempts, oldest first.`),
    created_at: timestamp,
    updated_at: timestamp,
    delivered_at: z.nullable(timestamp),
    last_attempt_at: z.nullable(timestamp),
    next_retry_at: describe(z.nullable(timestamp), 'When the next attempt is due, while retrying; null otherwise.'),
  }),
  { id: 'WebhookDelivery' },
);

export const retriedDelivery = withMeta(
  z.object({ id: z.string(), status: z.literal('pending'), attempt: z.int().check(z.gte(2), z.lte(maxAttempts)) }),
  { id: 'RetriedWebhookDelivery' },
);

export const testSendResult = withMeta(
  z.object({
    success: describe(z.boolean(), 'True when the endpoint answered 2xx.'),
    status_code: describe(z.nullable(z.int()), 'What the endpoint answered; null if it did not.'),
    response_time_ms: z.int().check(z.gte(0)),
    response_body: describe(
      z.optional(z.string()),
      `The start (${responseExcerptBytes / 1024} KiB) of the endpoint's answer, when it answered.`,
    ),
    error: describe(z.optional(z.string()), 'Why the send failed, when it did.'),
  }),
  { id: 'WebhookTestResult' },
);
