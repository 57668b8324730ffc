import { Aws, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as FunctionTarget } from 'aws-cdk-lib/aws-events-targets';
import { type IGrantable, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption, RedrivePermission } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { webhookEventKeys } from '#core/store/stream-records';
import { tableDesign } from '#core/store/table';
import { sweepEveryMs } from '#core/webhooks/sweeper';
import { addEnvironment } from './function-environment.ts';

export interface WebhooksProps {
  /** The single table, with its stream (constructs/data-table.ts). */
  table: ITable;
  /** functions/webhook-fanout: turns each new event into its deliveries and queues them. */
  fanout: LambdaFunction;
  /** functions/webhook-worker: one attempt per message; its timeout comes from workerTimeoutOf. */
  worker: LambdaFunction;
  /** functions/webhook-sweeper: fans out and re-queues what is overdue. */
  sweeper: LambdaFunction;
  /** The functions that queue attempts (the fan-out, worker and sweeper; a manual retry): they may send to the queue, nothing more. */
  enqueuers: LambdaFunction[];
  /** The functions that schedule later attempts (the worker, the sweeper): one-time schedules in the group, as its role. */
  schedulers: LambdaFunction[];
  /** WEBHOOK_TIMEOUT_MS: each attempt's timeout. */
  attemptTimeoutMs: number;
  /** WEBHOOK_DISABLE_AFTER: deliveries in a row ending `failed` that disable an endpoint. */
  disableAfter: number;
  /** At most this many worker invocations at once (CDK context `webhookWorkerMaxConcurrency`): each may wait on tenants' URLs. */
  workerMaxConcurrency: number;
  /** The customer-managed key of the queues (constructs/encryption-key.ts); unset, SQS's own. */
  encryptionKey?: IKey;
}

/**
 * The worker's Lambda timeout: a batch's attempts run in parallel, each within the attempt
 * timeout, and half a minute more covers reading and recording them.
 */
export const workerTimeoutOf = (attemptTimeoutMs: number) => Duration.seconds(Math.ceil(attemptTimeoutMs / 1000) + 30);

// AWS's advice for a Lambda consumer: a message stays hidden while up to six invocations
// could still be working on it, so a slow batch is not handed out twice.
const visibilityPerFunctionTimeout = 6;
// After this many receives without success a message goes to the dead-letter queue. A
// failed attempt does not count: the worker records it and lets the message go.
const maxReceiveCount = 5;
const retention = Duration.days(14);

/**
 * Webhook delivery in AWS (docs/webhooks.md, Webhooks in AWS): stream to fan-out, queue to
 * worker, Scheduler for long retries, and a sweeper for what they leave behind; the table's
 * records stay the truth.
 */
export class Webhooks extends Construct {
  readonly queue: Queue;
  /** How long a healthy message may wait in the queue: SQS's longest delay, then a visibility timeout if its first receive failed. */
  readonly longestMessageWait: Duration;
  /** Messages the worker failed on `maxReceiveCount` times. */
  readonly deadLetterQueue: Queue;
  /** Stream batches the fan-out failed on after all its retries (the sweeper still fans their events out). */
  readonly fanoutFailures: Queue;
  readonly scheduleGroup: CfnScheduleGroup;
  /** What EventBridge Scheduler acts as: it may only send to the queue. */
  readonly schedulerRole: Role;

  private readonly encryptionKey?: IKey;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    this.encryptionKey = props.encryptionKey;
    const workerTimeout = props.worker.timeout ?? Duration.seconds(3); // Lambda's default
    const stack = Stack.of(this);
    // Named, so that the dead-letter queue can name it as its one source without a reference circle.
    const queueName = `${stack.stackName}-webhook-deliveries`;
    const queueArn = stack.formatArn({ service: 'sqs', resource: queueName });
    this.deadLetterQueue = this.retainedQueueOf('DeadLetterQueue', {
      redriveAllowPolicy: { sourceQueues: [Queue.fromQueueArn(this, 'DeliveryQueueArn', queueArn)] },
    });
    // The fan-out's on-failure destination is no queue's dead-letter queue: Lambda sends to it as the fan-out's role.
    this.fanoutFailures = this.retainedQueueOf('FanoutFailures', { redriveAllowPolicy: { redrivePermission: RedrivePermission.DENY_ALL } });
    Validations.of(this.fanoutFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "The fan-out's on-failure destination is itself the last stop, a dead-letter queue for stream batches; an alarm watches it.",
    });
    const visibilityTimeout = Duration.seconds(workerTimeout.toSeconds() * visibilityPerFunctionTimeout);
    this.longestMessageWait = Duration.minutes(15).plus(visibilityTimeout);
    this.queue = this.queueOf('Queue', {
      queueName,
      visibilityTimeout,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount },
    });

    this.scheduleGroup = new CfnScheduleGroup(this, 'ScheduleGroup', { name: `${stack.stackName}-webhook-retries` });
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      description: 'EventBridge Scheduler puts a webhook retry back on the delivery queue',
      // Only schedules of this account's group act as it (the confused deputy).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID, 'aws:SourceArn': this.scheduleGroup.attrArn } },
      }),
      inlinePolicies: { SendToDeliveryQueue: new PolicyDocument({ statements: [this.sendStatement()] }) },
    });
    this.grantQueueKey(this.schedulerRole);

    this.wireFanout(props);
    props.worker.addEventSource(
      new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: props.workerMaxConcurrency }),
    );
    new Rule(this, 'SweeperSchedule', {
      description: 'Fans out webhook events and re-queues deliveries that are overdue',
      schedule: Schedule.rate(Duration.millis(sweepEveryMs)),
      targets: [new FunctionTarget(props.sweeper, { retryAttempts: 2, maxEventAge: Duration.minutes(1) })],
    });
    // A failed sweep is not retried: the next minute's sweep does the same work.
    props.sweeper.configureAsyncInvoke({ retryAttempts: 0 });

    for (const fn of props.enqueuers) this.grantEnqueue(fn);
    for (const fn of props.schedulers) this.grantSchedule(fn);
    for (const fn of [props.worker, props.sweeper]) {
      addEnvironment(fn, { WEBHOOK_TIMEOUT_MS: String(props.attemptTimeoutMs), WEBHOOK_DISABLE_AFTER: String(props.disableAfter) });
    }
  }

  /** The stream's inserted events only, told by their keys: every other write to the table never invokes the fan-out. */
  private wireFanout(props: WebhooksProps): void {
    props.fanout.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 100,
        // A failing batch is halved until the failing event stands alone, so it holds up no other.
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        onFailure: new SqsDlq(this.fanoutFailures),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: {
              Keys: {
                [tableDesign.partitionKey]: { S: FilterRule.beginsWith(webhookEventKeys.partitionKeyPrefix) },
                [tableDesign.sortKey]: { S: FilterRule.isEqual(webhookEventKeys.sortKey) },
              },
            },
          }),
        ],
      }),
    );
    Validations.of(props.fanout.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Reading a table stream needs dynamodb:ListStreams, which has no resource-level permissions; active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, likewise.',
    });
  }

  private queueOf(id: string, props: ConstructorParameters<typeof Queue>[2]): Queue {
    const encryption = this.encryptionKey
      ? { encryption: QueueEncryption.KMS, encryptionMasterKey: this.encryptionKey }
      : { encryption: QueueEncryption.SQS_MANAGED };
    return new Queue(this, id, { ...encryption, enforceSSL: true, ...props });
  }

  /** A last stop, kept 14 days (SQS's most) and, like the table, when the stack goes: what is in it is still to be looked at. */
  private retainedQueueOf(id: string, props: ConstructorParameters<typeof Queue>[2]): Queue {
    return this.queueOf(id, { retentionPeriod: retention, removalPolicy: RemovalPolicy.RETAIN, ...props });
  }

  /** With a customer-managed key, whoever sends to the queue encrypts with it (SQS's SSE-KMS needs both actions). */
  private grantQueueKey(grantee: IGrantable): void {
    this.encryptionKey?.grant(grantee, 'kms:GenerateDataKey', 'kms:Decrypt');
  }

  /** sqs:SendMessage alone, which also covers SendMessageBatch. */
  private sendStatement(): PolicyStatement {
    return new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] });
  }

  private grantEnqueue(fn: LambdaFunction): void {
    fn.addToRolePolicy(this.sendStatement());
    this.grantQueueKey(fn);
    addEnvironment(fn, { WEBHOOK_QUEUE_URL: this.queue.queueUrl });
  }

  /** One-time schedules in the group alone, acting as the scheduler's role and no other. */
  private grantSchedule(fn: LambdaFunction): void {
    const schedules = Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.scheduleGroup.name}/*`,
    });
    fn.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:CreateSchedule'], resources: [schedules] }));
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.schedulerRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    Validations.of(fn.role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${this.scheduleGroup.name}/*]`,
      reason: "Each retry is a schedule of its own, named at run time: the wildcard covers only the schedules of this stack's group.",
    });
    addEnvironment(fn, {
      WEBHOOK_QUEUE_ARN: this.queue.queueArn,
      WEBHOOK_SCHEDULE_GROUP: this.scheduleGroup.name!,
      WEBHOOK_SCHEDULER_ROLE_ARN: this.schedulerRole.roleArn,
    });
  }
}
