import * as z from 'zod/mini';
import { subscriptionProblem } from '#core/events/subscriptions';
import { idOf, timestamp } from '#core/platform/common-schemas';
import { environments } from '#core/platform/environments';
import { describe, withMeta } from '#core/platform/schema-meta';
import { singleLine } from '#core/platform/text-rules';
import { defaultWebhookDisableAfter } from '#core/platform/webhook-settings';
import { generatedSecretBytes, isWebhookSecret, maxSecretGraceHours, secretBytes, secretPrefix } from './secrets.ts';

export const webhookId = idOf('webhook', 'a webhook endpoint id');

const maxSubscriptions = 100;

/** An exact event type, `resource.*` or `*`; anything the catalogue does not know is refused, naming it. */
const subscription = z.string().check(
  z.maxLength(100, 'must be at most 100 characters'),
  z.superRefine((pattern, ctx) => {
    const problem = subscriptionProblem(pattern);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

const events = describe(
  z
    .array(subscription)
    .check(z.minLength(1, 'must name at least one event type'), z.maxLength(maxSubscriptions, `must name at most ${maxSubscriptions}`)),
  'Exact event types, `resource.*` (every event of a resource) or `*` (all).',
);

const url = describe(
  z.string().check(singleLine(), z.minLength(1, 'is required'), z.maxLength(2048, 'must be at most 2048 characters')),
  'An https:// URL on a public address: no credentials in it, and no host that is or resolves to a loopback, private, link-local, unique-local, CGNAT or otherwise special address.',
);

const secret = describe(
  z.string().check(
    z.refine(isWebhookSecret, {
      message: `must be ${secretPrefix} followed by the padded base64 of ${secretBytes.min} to ${secretBytes.max} random bytes (the Standard Webhooks form)`,
    }),
  ),
  `Your own signing secret; when omitted, ${secretPrefix} and the base64 of ${generatedSecretBytes} random bytes is generated.`,
);

export const createWebhookBody = withMeta(z.strictObject({ url, events, secret: z.optional(secret) }), {
  examples: [{ url: 'https://hooks.example.com/tenant-api', events: ['post.published', 'api_key.*'] }],
});

export const updateWebhookBody = z
  .strictObject({
    url: z.optional(url),
    events: z.optional(events),
    is_active: describe(
      z.optional(z.boolean()),
      'false pauses deliveries; true resumes them and starts the count of failures in a row afresh.',
    ),
  })
  .check(z.refine((body) => Object.keys(body).length > 0, { message: 'send at least one of url, events, is_active' }));

export const rotateWebhookSecretBody = z.strictObject({
  grace_period_hours: describe(
    z._default(z.int().check(z.gte(0), z.lte(maxSecretGraceHours)), 24),
    `How long the old secret keeps signing beside the new one (at most ${maxSecretGraceHours}); 0 ends it at once.`,
  ),
});

export const webhookEndpoint = withMeta(
  z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    is_active: z.boolean(),
    success_count: describe(z.int().check(z.gte(0)), 'Deliveries that ended in success.'),
    failure_count: describe(z.int().check(z.gte(0)), 'Deliveries that ended failed.'),
    consecutive_failures: describe(
      z.int().check(z.gte(0)),
      `Deliveries in a row that ended failed; at the threshold (${defaultWebhookDisableAfter}) the endpoint is disabled.`,
    ),
    last_delivery_at: describe(z.nullable(timestamp), 'When a delivery to the endpoint last ended.'),
    disabled_at: describe(
      z.nullable(timestamp),
      'When failed deliveries disabled the endpoint; null while active, or when a client set is_active false.',
    ),
    environment: describe(
      z.enum(environments),
      'The environment of the credential that created it: only events of that environment reach it.',
    ),
    workspace_id: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  {
    id: 'WebhookEndpoint',
    description: 'A webhook endpoint as lists and gets show it, and as `webhook.*` events carry it: never its secret.',
  },
);

const shownSecret = describe(z.string(), 'The signing secret; shown in this response only.');

export const createdWebhookEndpoint = withMeta(z.extend(webhookEndpoint, { secret: shownSecret }), { id: 'CreatedWebhookEndpoint' });

export const rotatedWebhookSecret = withMeta(
  z.extend(webhookEndpoint, {
    secret: shownSecret,
    previous_secret_expires_at: describe(
      z.nullable(timestamp),
      'Until when the old secret still signs beside the new one; null with grace_period_hours 0.',
    ),
  }),
  { id: 'RotatedWebhookSecret', description: 'The endpoint with its new secret, shown once.' },
);
