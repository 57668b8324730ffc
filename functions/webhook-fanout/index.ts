import type { DynamoDBStreamEvent } from 'aws-lambda';
import { sqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { insertedEventIdsOf } from '#core/store/stream-records';
import { fanOut } from '#core/webhooks/fan-out';
import { webhookFanoutFunction } from './definition.ts';

const deps = lambdaDeps(webhookFanoutFunction, { deliveryQueue: sqsDeliveryQueue });

/**
 * The table stream's consumer: fans out the events just written (INSERTs of webhookEvent
 * keys; the stack's filter should pass only those, and this checks again). The stream
 * carries keys only: fan-out reads each event from the table, consistently, anyway. A failure
 * fails the batch, which the stream hands over again; fan-out is safe to repeat.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const ids = insertedEventIdsOf(event.Records);
  if (ids.length) await fanOut(deps(), ids);
}
