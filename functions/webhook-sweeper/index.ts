import type { ScheduledEvent } from 'aws-lambda';
import { sqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { eventBridgeRetryScheduler } from '#core/adapters/retry-scheduler/scheduler-retry-scheduler';
import { telemetry } from '#core/platform/telemetry';
import { sweep, sweepMarginMs } from '#core/webhooks/sweeper';
import { webhookSweeperFunction } from './definition.ts';

const deps = lambdaDeps(webhookSweeperFunction, { deliveryQueue: sqsDeliveryQueue, retryScheduler: eventBridgeRetryScheduler });

/** The one-minute schedule's target: fans out events and wakes deliveries that the normal path left behind. */
export async function handler(_event: ScheduledEvent): Promise<{ events: number; deliveries: number }> {
  const swept = await sweep(deps(), { dueBefore: new Date(deps().clock.now().getTime() - sweepMarginMs) });
  if (swept.events || swept.deliveries) telemetry().logger.warn('The sweeper repaired what the normal path left behind.', swept);
  return swept;
}
