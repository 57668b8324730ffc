/**
 * The ports of webhook delivery (docs/architecture.md, Ports): in AWS the table's stream, SQS
 * and EventBridge Scheduler, locally in-process timers (lib/local/webhooks/). The delivery
 * record is the truth and these only wake the code that reads it, so that a lost or repeated
 * wake-up changes only the timing.
 */

/** Wakes the worker for one attempt of one delivery; `attempt` lets it drop a stale duplicate. */
export interface DeliveryMessage {
  deliveryId: string;
  webhookId: string;
  attempt: number;
}

/**
 * SQS in AWS: sends each message, visible after `delaySeconds` (at most 900; the SQS
 * adapter rounds a fraction up, the local one keeps it, for WEBHOOK_RETRY_SCALE's short
 * delays). Throws if any message was not sent.
 */
export interface DeliveryQueue {
  send(messages: readonly DeliveryMessage[], delaySeconds: number): Promise<void>;
}

/**
 * EventBridge Scheduler in AWS: puts the message on the delivery queue at `at`, once, then
 * deletes the schedule. Scheduling the same message twice makes one schedule.
 */
export interface RetryScheduler {
  schedule(message: DeliveryMessage, at: Date): Promise<void>;
}

/** Asks for committed events to be fanned out. In AWS the table's stream does it, so the relay does nothing. */
export interface EventRelay {
  relay(eventIds: readonly string[]): Promise<void>;
}
