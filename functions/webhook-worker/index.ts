import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { sqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { eventBridgeRetryScheduler } from '#core/adapters/retry-scheduler/scheduler-retry-scheduler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { configuredSecretBox } from '#core/adapters/webhook-secrets/configured-secret-box';
import { telemetry } from '#core/platform/telemetry';
import { attemptDelivery } from '#core/webhooks/attempt';
import { parseDeliveryMessage } from '#core/webhooks/message-format';
import { webhookWorkerFunction } from './definition.ts';

const processor = new BatchProcessor(EventType.SQS);
const deps = lambdaDeps(webhookWorkerFunction, {
  deliveryQueue: sqsDeliveryQueue,
  retryScheduler: eventBridgeRetryScheduler,
  webhookSecrets: configuredSecretBox,
});

/** One attempt per message; a message that is no delivery message is logged and dropped, not retried until the DLQ. */
async function attemptOf(record: SQSRecord): Promise<void> {
  const message = parseDeliveryMessage(record.body);
  if (!message) {
    telemetry().logger.error('Dropped a queue message that is no delivery message.', {
      messageId: record.messageId,
      body: record.body.slice(0, 500),
    });
    return;
  }
  await attemptDelivery(deps(), message);
}

/** The delivery queue's consumer: a failed record alone comes back (reportBatchItemFailures), after the visibility timeout. */
export const handler = withSecrets(webhookWorkerFunction, (event: SQSEvent, context: Context) =>
  processPartialResponse(event, attemptOf, processor, { context }),
);
