import type { DynamoDBStreamEvent } from 'aws-lambda';
import { sqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { fanOut } from '#core/webhooks/fan-out';
import { webhookFanoutFunction } from './definition.ts';

const deps = lambdaDeps(webhookFanoutFunction, { deliveryQueue: sqsDeliveryQueue });

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
  if (ids.length) await fanOut(deps(), ids);
}
