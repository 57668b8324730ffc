import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '#core/platform/config';
import { requiredWebhookSetting } from '#core/platform/webhook-settings';
import type { DeliveryMessage, DeliveryQueue } from '#core/ports/webhook-delivery';
import { maxQueueDelaySeconds } from '#core/webhooks/ladder';

/** SendMessageBatch's limit. */
const batchSize = 10;

/**
 * The delivery queue in AWS: SendMessageBatch, ten messages a call, each visible after
 * `delaySeconds` rounded up to a whole second (SQS counts in seconds; never early) and at
 * most 900. Any entry SQS did not take fails the whole send, so the caller knows (and the
 * sweeper repairs it: the deliveries are in the due index).
 */
export function createSqsDeliveryQueue(client: SQSClient, queueUrl: string): DeliveryQueue {
  return {
    send: async (messages: readonly DeliveryMessage[], delaySeconds: number) => {
      const delay = Math.min(maxQueueDelaySeconds, Math.max(0, Math.ceil(delaySeconds)));
      for (let start = 0; start < messages.length; start += batchSize) {
        const batch = messages.slice(start, start + batchSize);
        const { Failed } = await client.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map((message, i) => ({ Id: String(i), MessageBody: JSON.stringify(message), DelaySeconds: delay })),
          }),
        );
        if (Failed?.length) {
          throw new Error(
            `SQS did not take ${Failed.length} of ${batch.length} delivery messages: ${Failed.map((f) => `${f.Code}: ${f.Message}`).join('; ')}`,
          );
        }
      }
    },
  };
}

/** The delivery queue port's adapter in Lambda: the queue the stack names (WEBHOOK_QUEUE_URL). */
export const sqsDeliveryQueue = (): DeliveryQueue =>
  createSqsDeliveryQueue(new SQSClient({ region: config().AWS_REGION }), requiredWebhookSetting('WEBHOOK_QUEUE_URL'));
