import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { deliveryRuntimeDeps } from '#core/adapters/webhooks/delivery-runtime';
import { withWebhookSecrets } from '#core/adapters/webhooks/secrets-runtime';
import { telemetry } from '#core/platform/telemetry';
import { attemptDelivery } from '#core/webhooks/attempt';
import { parseDeliveryMessage } from '#core/webhooks/message-format';

const processor = new BatchProcessor(EventType.SQS);
/** The worker signs every attempt: it holds the keys of webhook secrets. */
const workerDeps = withWebhookSecrets(deliveryRuntimeDeps);

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
  await attemptDelivery(workerDeps(), message);
}

/** The delivery queue's consumer: a failed record alone comes back (reportBatchItemFailures), after the visibility timeout. */
export const handler = (event: SQSEvent, context: Context) => processPartialResponse(event, attemptOf, processor, { context });
