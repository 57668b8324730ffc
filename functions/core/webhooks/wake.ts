import type { Deps } from '#core/ports/deps';
import type { DeliveryMessage } from '#core/ports/webhook-delivery';
import { maxQueueDelaySeconds } from './ladder.ts';

/**
 * Wakes the worker for `message` at `at`: on the queue with a delay when that is at most
 * 15 minutes away (SQS's limit), else by a one-time schedule that puts it on the queue
 * then. A time already past wakes it at once. If this fails after the delivery was
 * written, nothing is lost: the delivery is in the due index, and the sweeper wakes it.
 */
export async function wakeDelivery(deps: Deps, message: DeliveryMessage, at: Date): Promise<void> {
  const delaySeconds = Math.max(0, (at.getTime() - deps.clock.now().getTime()) / 1000);
  if (delaySeconds <= maxQueueDelaySeconds) await deps.deliveryQueue.send([message], delaySeconds);
  else await deps.retryScheduler.schedule(message, at);
}

/** The message that wakes the worker for a delivery's current attempt. */
export const messageOf = (delivery: { id: string; webhookId: string; attempt: number }): DeliveryMessage => ({
  deliveryId: delivery.id,
  webhookId: delivery.webhookId,
  attempt: delivery.attempt,
});
