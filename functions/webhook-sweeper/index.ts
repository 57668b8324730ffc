import type { ScheduledEvent } from 'aws-lambda';
import { deliveryRuntimeDeps } from '#core/adapters/webhooks/delivery-runtime';
import { telemetry } from '#core/platform/telemetry';
import { sweep, sweepMarginMs } from '#core/webhooks/sweeper';

/** The one-minute schedule's target: fans out events and wakes deliveries that the normal path left behind. */
export async function handler(_event: ScheduledEvent): Promise<{ events: number; deliveries: number }> {
  const deps = deliveryRuntimeDeps();
  const swept = await sweep(deps, { dueBefore: new Date(deps.clock.now().getTime() - sweepMarginMs) });
  if (swept.events || swept.deliveries) telemetry().logger.warn('The sweeper repaired what the normal path left behind.', swept);
  return swept;
}
