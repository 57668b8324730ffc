import * as z from 'zod/mini';
import { flag, parseSettings } from './config.ts';

const wholeNumber = (fallback: string, min: number, max: number) =>
  z.pipe(
    z._default(z.string().check(z.regex(/^\d{1,9}$/, 'must be a whole number')), fallback),
    z.pipe(z.transform(Number), z.number().check(z.gte(min), z.lte(max))),
  );

/** Keys that seal webhook secrets (secret-box.ts): comma-separated, each of 32 characters or more. */
export const secretKeyList = z.pipe(
  z.string().check(z.regex(/^[^\s,]{32,}(,[^\s,]{32,})*$/, 'must be comma-separated keys of at least 32 characters each, without spaces')),
  z.transform((value) => value.split(',')),
);

/** WEBHOOK_TIMEOUT_MS when it is not set, as the stack's webhookTimeoutMs. */
export const defaultWebhookTimeoutMs = 30_000;

/** WEBHOOK_DISABLE_AFTER when it is not set, as the stack's webhookDisableAfter; what the schemas and the event catalogue name as the threshold. */
export const defaultWebhookDisableAfter = 15;

/**
 * Webhook delivery's settings (docs/decisions.md, local runner contract), apart from config()
 * so that only the functions that deliver or manage webhooks parse them.
 */
const webhookSettings = z.object({
  /** `1`: `http://` and loopback or private targets are accepted (local use only). */
  WEBHOOK_ALLOW_INSECURE: flag('0'),
  /** Each attempt's timeout. */
  WEBHOOK_TIMEOUT_MS: wholeNumber(String(defaultWebhookTimeoutMs), 100, 900_000),
  /** Multiplies every ladder delay (e.g. `0.001`); the local runner only. */
  WEBHOOK_RETRY_SCALE: z.pipe(
    z._default(z.string().check(z.regex(/^\d+(\.\d+)?$/, 'must be a number')), '1'),
    z.pipe(z.transform(Number), z.number().check(z.gt(0), z.lte(1))),
  ),
  /** Deliveries in a row ending `failed` that disable an endpoint. */
  WEBHOOK_DISABLE_AFTER: wholeNumber(String(defaultWebhookDisableAfter), 1, 1_000_000),
  /**
   * The keys that encrypt endpoints' signing secrets in the table (secret-box.ts):
   * comma-separated, each at least 32 characters; the first encrypts, every one decrypts.
   * The stack sets it for the functions that create, rotate or sign with secrets; unset,
   * the local runner keeps one in DATA_DIR (lib/local/secret-keys.ts) and other processes draw one of their own.
   */
  WEBHOOK_SECRET_KEYS: z.optional(secretKeyList),
  /** Set by the stack: the delivery queue, and what a schedule needs to put a message on it. */
  WEBHOOK_QUEUE_URL: z.optional(z.url()),
  WEBHOOK_QUEUE_ARN: z.optional(z.string().check(z.regex(/^arn:/, 'must be an ARN'))),
  WEBHOOK_SCHEDULE_GROUP: z.optional(z.string().check(z.minLength(1))),
  WEBHOOK_SCHEDULER_ROLE_ARN: z.optional(z.string().check(z.regex(/^arn:/, 'must be an ARN'))),
});

export type WebhookSettings = z.infer<typeof webhookSettings>;

/** The environment variables of webhook delivery's settings. */
export type WebhookVariable = keyof z.input<typeof webhookSettings>;

let cached: WebhookSettings | undefined;

export const webhookConfig = (): WebhookSettings => (cached ??= parseSettings(webhookSettings, process.env));

/** A setting the stack gives the webhook functions that use it; missing, such a function cannot work at all. */
export function requiredWebhookSetting<
  K extends 'WEBHOOK_QUEUE_URL' | 'WEBHOOK_QUEUE_ARN' | 'WEBHOOK_SCHEDULE_GROUP' | 'WEBHOOK_SCHEDULER_ROLE_ARN' | 'WEBHOOK_SECRET_KEYS',
>(name: K): NonNullable<WebhookSettings[K]> {
  const value = webhookConfig()[name];
  if (!value) throw new Error(`${name} is not set: the stack gives it to the webhook functions that need it.`);
  return value;
}
