import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { config } from '#core/platform/config';
import { requiredWebhookSetting } from '#core/platform/webhook-settings';
import type { DeliveryMessage, RetryScheduler } from '#core/ports/webhook-delivery';

/** Where a schedule puts its message: the delivery queue, as the role made for that (and only that). */
export interface ScheduleTarget {
  groupName: string;
  queueArn: string;
  roleArn: string;
}

/** A schedule's name, and its idempotency token: one per attempt of a delivery. */
const scheduleNameOf = (message: DeliveryMessage) => `${message.deliveryId}-attempt-${message.attempt}`;

/** Scheduler's one-time expression, in UTC to the second, rounded up so that it never fires before `at`. */
const atExpression = (at: Date) => `at(${new Date(Math.ceil(at.getTime() / 1000) * 1000).toISOString().slice(0, 19)})`;

/**
 * The retry scheduler in AWS: a one-time Scheduler schedule that puts the message on the
 * delivery queue at `at`, then deletes itself. It is named after the delivery and attempt, so
 * that scheduling an attempt again makes no second schedule (its ConflictException means it
 * exists).
 */
export function createSchedulerRetryScheduler(client: SchedulerClient, target: ScheduleTarget): RetryScheduler {
  return {
    schedule: async (message, at) => {
      const name = scheduleNameOf(message);
      try {
        await client.send(
          new CreateScheduleCommand({
            Name: name,
            GroupName: target.groupName,
            ScheduleExpression: atExpression(at),
            ScheduleExpressionTimezone: 'UTC',
            FlexibleTimeWindow: { Mode: 'OFF' },
            ActionAfterCompletion: 'DELETE',
            ClientToken: name,
            Target: { Arn: target.queueArn, RoleArn: target.roleArn, Input: JSON.stringify(message) },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConflictException)) throw error;
      }
    },
  };
}

/** The retry scheduler port's adapter in Lambda: the schedule group, queue and role the stack names. */
export const eventBridgeRetryScheduler = (): RetryScheduler =>
  createSchedulerRetryScheduler(new SchedulerClient({ region: config().AWS_REGION }), {
    groupName: requiredWebhookSetting('WEBHOOK_SCHEDULE_GROUP'),
    queueArn: requiredWebhookSetting('WEBHOOK_QUEUE_ARN'),
    roleArn: requiredWebhookSetting('WEBHOOK_SCHEDULER_ROLE_ARN'),
  });
