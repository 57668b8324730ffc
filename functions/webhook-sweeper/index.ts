import type { ScheduledEvent } from 'aws-lambda';
import { sqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { eventBridgeRetryScheduler } from '#core/adapters/retry-scheduler/scheduler-retry-scheduler';
import { telemetry } from '#core/platform/telemetry';
import { addOldestDueDelivery, type SweepResult, sweep, sweepMarginMs } from '#core/webhooks/sweeper';
import { webhookSweeperFunction } from './definition.ts';

const deps = lambdaDeps(webhookSweeperFunction, { deliveryQueue: sqsDeliveryQueue, retryScheduler: eventBridgeRetryScheduler });

/**
 * The one-minute schedule's target: fans out events and wakes deliveries that the normal
 * path left behind, and publishes how long the oldest of those waited, every run (0 too), so
 * that the alarm on it also sees the sweeper stop.
 */
export async function handler(_event: ScheduledEvent): Promise<SweepResult> {
  const swept = await sweep(deps(), { dueBefore: new Date(deps().clock.now().getTime() - sweepMarginMs) });
  if (swept.events || swept.deliveries) telemetry().logger.warn('The sweeper repaired what the normal path left behind.', { ...swept });
  const { metrics } = telemetry();
  if (metrics) {
    addOldestDueDelivery(metrics, swept);
    metrics.publishStoredMetrics();
  }
  return swept;
}
