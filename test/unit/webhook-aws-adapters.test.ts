import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { createSqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { createSchedulerRetryScheduler } from '#core/adapters/retry-scheduler/scheduler-retry-scheduler';
import { retryLadderSeconds } from '#core/webhooks/ladder';

const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/deliveries';
const target = {
  groupName: 'webhook-retries',
  queueArn: 'arn:aws:sqs:eu-west-1:123456789012:deliveries',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler-to-deliveries',
};
const message = (n: number, attempt = 2) => ({
  deliveryId: `del_01JN00000000000000000000${String(n).padStart(2, '0')}`,
  webhookId: 'wh_01JN0000000000000000000000',
  attempt,
});

describe('the SQS delivery queue', () => {
  const sqs = mockClient(SQSClient);
  afterEach(() => sqs.reset());
  const queue = () => createSqsDeliveryQueue(new SQSClient({ region: 'eu-west-1' }), queueUrl);

  it.each([
    [retryLadderSeconds[1], 60],
    [retryLadderSeconds[2], 300],
    [0.06, 1],
    [0, 0],
  ])('sends a delay of %s s as DelaySeconds %s', async (delay, expected) => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await queue().send([message(1)], delay);
    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: queueUrl, Entries: [{ Id: '0', MessageBody: JSON.stringify(message(1)), DelaySeconds: expected }] },
    ]);
  });

  it('sends 23 messages in batches of 10, 10 and 3', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await queue().send(
      Array.from({ length: 23 }, (_, i) => message(i)),
      0,
    );
    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries!.length)).toEqual([10, 10, 3]);
  });

  it('throws when SQS did not take an entry', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolves({ Successful: [], Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false, Message: 'try again' }] });
    await expect(queue().send([message(1)], 0)).rejects.toThrow(/did not take 1 of 1/);
  });
});

describe('the EventBridge Scheduler retry scheduler', () => {
  const scheduler = mockClient(SchedulerClient);
  afterEach(() => scheduler.reset());
  const retries = () => createSchedulerRetryScheduler(new SchedulerClient({ region: 'eu-west-1' }), target);
  const sentAt = Date.parse('2026-03-01T12:00:00.250Z');

  it.each([
    [4, retryLadderSeconds[3], 'at(2026-03-01T12:30:01)'],
    [5, retryLadderSeconds[4], 'at(2026-03-01T14:00:01)'],
    [6, retryLadderSeconds[5], 'at(2026-03-02T12:00:01)'],
  ])(
    'schedules attempt %s (after %s s) once, as %s in UTC, onto the queue, deleted after completion',
    async (attempt, delay, expression) => {
      scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:::schedule/x' });
      await retries().schedule(message(7, attempt), new Date(sentAt + delay * 1000));
      const name = `del_01JN0000000000000000000007-attempt-${attempt}`;
      expect(scheduler.commandCalls(CreateScheduleCommand).map((call) => call.args[0].input)).toEqual([
        {
          Name: name,
          GroupName: 'webhook-retries',
          ScheduleExpression: expression,
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          ClientToken: name,
          Target: { Arn: target.queueArn, RoleArn: target.roleArn, Input: JSON.stringify(message(7, attempt)) },
        },
      ]);
    },
  );

  it('takes a schedule that exists already for the same attempt as done', async () => {
    scheduler
      .on(CreateScheduleCommand)
      .rejects(new ConflictException({ message: 'Schedule already exists.', Message: 'Schedule already exists.', $metadata: {} }));
    await expect(retries().schedule(message(7, 4), new Date(sentAt + 1_800_000))).resolves.toBeUndefined();
  });

  it('throws on any other failure', async () => {
    scheduler.on(CreateScheduleCommand).rejects(new Error('throttled'));
    await expect(retries().schedule(message(7, 4), new Date(sentAt + 1_800_000))).rejects.toThrow('throttled');
  });
});
