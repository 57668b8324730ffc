import type { DynamoDBStreamEvent } from 'aws-lambda';
import { queueRuntimeDeps } from '#core/adapters/webhooks/queue-runtime';
import { fanOut } from '#core/webhooks/fan-out';

/**
 * The table stream's consumer: fans out the events just written (INSERTs of webhookEvent
 * items; the stack's filter should pass only those, and this checks again). A failure
 * fails the batch, which the stream hands over again; fan-out is safe to repeat.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const ids = event.Records.flatMap((record) => {
    const image = record.dynamodb?.NewImage;
    const isEvent = record.eventName === 'INSERT' && image?.__edb_e__?.S === 'webhookEvent';
    return isEvent && image.id?.S ? [image.id.S] : [];
  });
  if (ids.length) await fanOut(queueRuntimeDeps(), ids);
}
