import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { config } from '#core/platform/config';
import type { Deps } from '#core/ports/deps';
import { queueRuntimeDeps, required } from './queue-runtime.ts';
import { createSchedulerRetryScheduler } from './scheduler-retry-scheduler.ts';

let deps: Deps | undefined;

/**
 * queueRuntimeDeps with the EventBridge Scheduler retry scheduler too, for the functions
 * that wake later rungs of the ladder (worker, sweeper); the only bundles with the Scheduler client.
 */
export const deliveryRuntimeDeps = (): Deps =>
  (deps ??= {
    ...queueRuntimeDeps(),
    retryScheduler: createSchedulerRetryScheduler(new SchedulerClient({ region: config().AWS_REGION }), {
      groupName: required('WEBHOOK_SCHEDULE_GROUP'),
      queueArn: required('WEBHOOK_QUEUE_ARN'),
      roleArn: required('WEBHOOK_SCHEDULER_ROLE_ARN'),
    }),
  });
