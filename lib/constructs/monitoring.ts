import { Aspects, type Duration, NestedStack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { AlarmTopic, NotifyOnEveryAlarm } from './alarm-topic.ts';
import { OperationsDashboard } from './dashboard.ts';
import { accountConcurrency, apiRateOf, fiveMinutes, oldestDueDeliveryAge, sesReputation } from './service-metrics.ts';

export interface MonitoringProps {
  api: RestApi;
  table: ITable;
  /** Every function of the main stack, by name: each gets an errors alarm. */
  functions: Record<string, IFunction> & Record<'authorizer' | 'webhook-fanout' | 'webhook-worker' | 'pixel', IFunction>;
  /** Where the webhook worker takes its attempts from. */
  deliveryQueue: IQueue;
  /** Queues that hold only what failed for good, by alarm name: a message there waits for an operator. */
  deadLetterQueues: Record<string, IQueue>;
  /** The SES configuration set the mail goes through (lib/constructs/mail.ts). */
  mailConfigurationSet: string;
  /** Context `alarmEmail`: subscribed to the alarm topic. */
  alarmEmail?: string;
  /** Context `accountConcurrencyLimit`: the account's Lambda concurrency quota in the region. */
  accountConcurrencyLimit: number;
  /** The main stack's name: each alarm's name begins with it, and the functions' own metrics are in its namespace (METRICS_NAMESPACE). */
  stackName: string;
  /** How long a healthy delivery message may wait in the queue (constructs/webhooks.ts). */
  longestMessageWait: Duration;
}

const sum = { period: fiveMinutes, statistic: 'Sum' };

/** CloudWatch's limit of metrics in one alarm. */
const maxMetricsPerAlarm = 10;

// What the store issues (ElectroDB), within CloudWatch's limit of metrics per alarm.
const tableOperations = {
  ...sum,
  operations: [
    Operation.GET_ITEM,
    Operation.BATCH_GET_ITEM,
    Operation.QUERY,
    Operation.PUT_ITEM,
    Operation.UPDATE_ITEM,
    Operation.DELETE_ITEM,
    Operation.BATCH_WRITE_ITEM,
    Operation.TRANSACT_WRITE_ITEMS,
  ],
};

/** How an alarm judges its metric; by default, one period at or above the threshold. */
interface AlarmRule {
  threshold: number;
  /** What it means and what to do first; docs/operations.md, Alarms, says more. */
  description: string;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
  treatMissingData?: TreatMissingData;
}

/** Zero is the only healthy count: a 5xx-free function, a throttle-free table, an empty dead-letter queue. */
const anyAtAll = (description: string): AlarmRule => ({ threshold: 1, description });

/**
 * The alarms, their topic and the dashboard, in a nested stack: the main stack is near
 * CloudFormation's 500 resources, and nothing else refers to these (docs/operations.md,
 * Alarms).
 */
export class Monitoring extends NestedStack {
  readonly topic: Topic;

  private readonly alarmNamePrefix: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, { description: 'Alarms, their SNS topic and the operations dashboard' });
    this.alarmNamePrefix = props.stackName;
    this.topic = new AlarmTopic(this, 'AlarmTopic', { email: props.alarmEmail }).topic;
    // The whole app, the main stack and its other nested stacks included: no alarm notifies nobody.
    Aspects.of(scope).add(new NotifyOnEveryAlarm(this.topic));
    this.apiAlarms(props.api, props.functions.authorizer);
    this.functionAlarms(props.functions, props.accountConcurrencyLimit);
    this.tableAlarms(props.table);
    this.deliveryAlarms(props);
    this.mailAlarms();
    new OperationsDashboard(this, 'Operations', {
      api: props.api,
      functions: props.functions,
      fanout: props.functions['webhook-fanout'],
      worker: props.functions['webhook-worker'],
      pixel: props.functions.pixel,
      deliveryQueue: props.deliveryQueue,
      deadLetterQueues: props.deadLetterQueues,
      mailConfigurationSet: props.mailConfigurationSet,
      metricsNamespace: props.stackName,
    });
  }

  private apiAlarms(api: RestApi, authorizer: IFunction): void {
    // 5% of requests failing on our side, in two of three five-minute periods: past a blip
    // (a deploy's first cold starts), well before clients give up. The floor of 20 requests
    // keeps one error at night from being a 100% rate; five errors count at any traffic.
    this.alarmOn('ApiServerErrorRate', apiRateOf(api, api.metricServerError(sum), { requests: 20, errors: 5 }, '5xx (% of requests)'), {
      threshold: 5,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      description: '5xx answers are 5% of requests or more: read the failing functions’ logs (their Errors alarms name them).',
    });
    // Clients' own mistakes (validation, 401, 404, 429 of a plan) are a steady share of any
    // API's answers; a quarter of all requests, for fifteen minutes, with at least 100
    // requests each five, is a flood of bad credentials, a scan or a broken client release.
    // A fixed ratio rather than anomaly detection: a surge that lasts becomes the band's
    // "normal" within its two weeks of training, and the ratio says in one number what it checks.
    this.alarmOn('ApiClientErrorSurge', apiRateOf(api, api.metricClientError(sum), { requests: 100 }, '4xx (% of requests)'), {
      threshold: 25,
      evaluationPeriods: 3,
      description: '4xx answers are a quarter of requests or more for 15 minutes: read the access log for who and which route.',
    });
    // The API's p99 (authorizer, integration and API Gateway itself) at 3 s for fifteen
    // minutes: three times what a cold start costs, so it is not one cold start at night.
    this.alarmOn('ApiLatencyP99', api.metricLatency({ period: fiveMinutes, statistic: 'p99' }), {
      threshold: 3_000,
      evaluationPeriods: 3,
      description: 'The API’s p99 latency is 3 s or more for 15 minutes: check the table’s and the authorizer’s latency.',
    });
    // Every request waits for the authorizer; a bcrypt verification takes a few hundred ms
    // and is cached per process, so a p99 of a second means DynamoDB is slow or every
    // request brings a key the process has not seen (a flood of made-up keys).
    this.alarmOn('AuthorizerLatencyP99', authorizer.metricDuration({ period: fiveMinutes, statistic: 'p99' }), {
      threshold: 1_000,
      evaluationPeriods: 3,
      description: 'The authorizer’s p99 duration is 1 s or more for 15 minutes: every request waits for it.',
    });
  }

  private functionAlarms(functions: Record<string, IFunction>, accountLimit: number): void {
    for (const [name, fn] of Object.entries(functions)) {
      this.alarmOn(`${name}Errors`, fn.metricErrors(sum), anyAtAll(`The ${name} function failed: read its log group.`));
    }
    // Throttles are the account's concurrency running out, not one function's fault: the
    // functions' throttles summed, ten to an alarm (CloudWatch's limit of metrics per alarm).
    const all = Object.values(functions);
    for (let i = 0; i < all.length; i += maxMetricsPerAlarm) {
      const group = all.slice(i, i + maxMetricsPerAlarm);
      const metrics = Object.fromEntries(group.map((fn, j) => [`t${j}`, fn.metricThrottles(sum)]));
      this.alarmOn(
        `FunctionThrottles${i / maxMetricsPerAlarm + 1}`,
        new MathExpression({ expression: `SUM([${Object.keys(metrics).join(',')}])`, usingMetrics: metrics, period: fiveMinutes }),
        anyAtAll('Lambda refused to run a function: the account’s concurrency ran out (see AccountConcurrency).'),
      );
    }
    // Lambda throttles every function of the account at its quota; 80% for three of five
    // minutes leaves time to ask for more or find the flood before anything is refused.
    this.alarmOn('AccountConcurrency', accountConcurrency(), {
      threshold: Math.floor(accountLimit * 0.8),
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      description: `The account’s Lambda functions ran ${Math.floor(accountLimit * 0.8)} at once (80% of ${accountLimit}): at the quota every function is throttled.`,
    });
  }

  private tableAlarms(table: ITable): void {
    this.alarmOn(
      'TableThrottles',
      table.metricThrottledRequestsForOperations(tableOperations),
      anyAtAll('DynamoDB throttled requests (on-demand capacity): see the table’s metrics for the operation.'),
    );
    this.alarmOn(
      'TableSystemErrors',
      table.metricSystemErrorsForOperations(tableOperations),
      anyAtAll('DynamoDB failed requests on its side: check the AWS Health Dashboard.'),
    );
  }

  private deliveryAlarms(props: MonitoringProps): void {
    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      this.alarmOn(
        name,
        queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum' }),
        anyAtAll('A message failed for good and waits in a dead-letter queue: read why, then redrive it.'),
      );
    }
    // The sweeper publishes it every minute and re-queues what is due, so a healthy service
    // keeps it at a few minutes; ten minutes, twice in a row, is deliveries not being made.
    // Missing data breaches: the sweeper stopped running, and nothing repairs lost wake-ups.
    this.alarmOn('OldestDueDelivery', oldestDueDeliveryAge(props.stackName), {
      threshold: 600,
      evaluationPeriods: 2,
      treatMissingData: TreatMissingData.BREACHING,
      description:
        'A webhook delivery has been due for 10 minutes or more, or the sweeper published nothing: check the worker and the sweeper.',
    });
    // The fan-out reads the table's stream; ten minutes behind, twice in a row, it is stuck
    // on a batch (it retries one ten times) or failing, and new events wait for the sweeper.
    this.alarmOn(
      'StreamIteratorAge',
      props.functions['webhook-fanout'].metric('IteratorAge', { period: fiveMinutes, statistic: 'Maximum' }),
      {
        threshold: 10 * 60 * 1000,
        evaluationPeriods: 2,
        description: 'The webhook fan-out is 10 minutes or more behind the table’s stream: read its log group.',
      },
    );
    // A message may wait by design up to 15 minutes (the longest SQS delay) and a retried
    // one a visibility timeout more (21 minutes with the default timeout); five minutes past
    // that, and never under half an hour, is the worker not keeping up or not running.
    const oldestMessageThreshold = Math.max(30 * 60, props.longestMessageWait.toSeconds() + 5 * 60);
    this.alarmOn(
      'DeliveryQueueOldestMessage',
      props.deliveryQueue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum' }),
      {
        threshold: oldestMessageThreshold,
        description: `A delivery message has waited ${Math.round(oldestMessageThreshold / 60)} minutes or more: the webhook worker is not keeping up or not running.`,
      },
    );
  }

  /**
   * The account's reputation, not the configuration set's: SES reviews and pauses the
   * account on these, whatever sent the mail. Alarmed at SES's review thresholds; no mail,
   * no data, no alarm.
   */
  private mailAlarms(): void {
    this.alarmOn('SesBounceRate', sesReputation('BounceRate'), {
      threshold: 0.05,
      description: 'SES’s bounce rate is 5% or more: SES reviews the account (and pauses sending at 10%).',
    });
    this.alarmOn('SesComplaintRate', sesReputation('ComplaintRate'), {
      threshold: 0.001,
      description: 'SES’s complaint rate is 0.1% or more: SES reviews the account (and pauses sending at 0.5%).',
    });
  }

  private alarmOn(id: string, metric: IMetric, rule: AlarmRule): void {
    new Alarm(this, id, {
      // Named, so that the console shows the names the guide uses, each stack's apart.
      alarmName: `${this.alarmNamePrefix}-${id}`,
      metric,
      threshold: rule.threshold,
      evaluationPeriods: rule.evaluationPeriods ?? 1,
      datapointsToAlarm: rule.datapointsToAlarm,
      alarmDescription: `${rule.description} (docs/operations.md, Alarms: ${id})`,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: rule.treatMissingData ?? TreatMissingData.NOT_BREACHING,
    });
  }
}
