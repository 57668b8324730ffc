import { SQSClient } from '@aws-sdk/client-sqs';
import { runtimeDeps } from '#core/adapters/runtime';
import { config } from '#core/platform/config';
import { webhookConfig } from '#core/platform/webhook-settings';
import type { Deps } from '#core/ports/deps';
import { createSqsDeliveryQueue } from './sqs-delivery-queue.ts';

/** A setting the stack must give a webhook function; missing, the function cannot work at all. */
export function required(
  name: 'WEBHOOK_QUEUE_URL' | 'WEBHOOK_QUEUE_ARN' | 'WEBHOOK_SCHEDULE_GROUP' | 'WEBHOOK_SCHEDULER_ROLE_ARN',
): string {
  const value = webhookConfig()[name];
  if (!value) throw new Error(`${name} is not set: the stack gives it to the webhook functions.`);
  return value;
}

let deps: Deps | undefined;

/**
 * runtimeDeps with the SQS delivery queue, for the functions that only queue deliveries at
 * once (fan-out, manual retries). A module of its own, so that no other bundle holds the
 * SQS client (test/unit/aws-client-bundles.test.ts).
 */
export const queueRuntimeDeps = (): Deps =>
  (deps ??= {
    ...runtimeDeps(),
    deliveryQueue: createSqsDeliveryQueue(new SQSClient({ region: config().AWS_REGION }), required('WEBHOOK_QUEUE_URL')),
  });
