import type { DynamoDBStreamEvent } from 'aws-lambda';
import { sqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { insertedEventIdsOf } from '#core/store/stream-records';
import { fanOut } from '#core/webhooks/fan-out';
import { webhookFanoutFunction } from './definition.ts';

const deps = lambdaDeps(webhookFanoutFunction, { deliveryQueue: sqsDeliveryQueue });

/**
 * The stream's consumer: fans out the events just inserted, reading each from the table (the
 * stream carries keys only); a failure fails the batch, which comes again, as fan-out is safe
 * to repeat.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const ids = insertedEventIdsOf(event.Records);
  if (ids.length) await fanOut(deps(), ids);
}
