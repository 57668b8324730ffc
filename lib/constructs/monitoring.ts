import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface MonitoringProps {
  api: RestApi;
  table: ITable;
  functions: Record<string, IFunction>;
  /** Queues that hold only what failed for good, by alarm name: a message there waits for an operator. */
  deadLetterQueues?: Record<string, IQueue>;
}

const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };

/** CloudWatch's limit of metrics in one alarm. */
const maxMetricsPerAlarm = 10;

// What the store issues (ElectroDB), within CloudWatch's limit of metrics per alarm.
const tableOperations = {
  ...fiveMinutes,
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

/**
 * Alarms on what should never happen: no client request is meant to produce a 5xx,
 * on-demand capacity is meant never to throttle, and nothing is meant to land in a
 * dead-letter queue. Any one occurrence is worth a look.
 */
export class Monitoring extends Construct {
  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.alarmOn('Api5xx', props.api.metricServerError(fiveMinutes));
    this.alarmOn('TableThrottles', props.table.metricThrottledRequestsForOperations(tableOperations));
    this.alarmOn('TableSystemErrors', props.table.metricSystemErrorsForOperations(tableOperations));
    for (const [name, fn] of Object.entries(props.functions)) this.alarmOn(`${name}Errors`, fn.metricErrors(fiveMinutes));
    // Throttles are the account's concurrency running out, not one function's fault: the functions'
    // throttles summed, ten to an alarm (CloudWatch's limit), which keeps the stack within 500 resources.
    const functions = Object.values(props.functions);
    for (let i = 0; i < functions.length; i += maxMetricsPerAlarm) {
      const group = functions.slice(i, i + maxMetricsPerAlarm);
      const metrics = Object.fromEntries(group.map((fn, j) => [`t${j}`, fn.metricThrottles(fiveMinutes)]));
      this.alarmOn(
        `FunctionThrottles${i / maxMetricsPerAlarm + 1}`,
        new MathExpression({ expression: `SUM([${Object.keys(metrics).join(',')}])`, usingMetrics: metrics, period: fiveMinutes.period }),
      );
    }
    for (const [name, queue] of Object.entries(props.deadLetterQueues ?? {})) {
      this.alarmOn(name, queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }));
    }
  }

  private alarmOn(id: string, metric: IMetric): void {
    new Alarm(this, id, {
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
