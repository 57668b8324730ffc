import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Dashboard, GraphWidget, type IMetric, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { fiveMinutes, oldestDueDeliveryAge, sesReputation } from './service-metrics.ts';

export interface OperationsDashboardProps {
  api: RestApi;
  /** Every function, by name: their errors side by side. */
  functions: Record<string, IFunction>;
  fanout: IFunction;
  worker: IFunction;
  pixel: IFunction;
  deliveryQueue: IQueue;
  deadLetterQueues: Record<string, IQueue>;
  /** The SES configuration set the mail goes through (lib/constructs/mail.ts). */
  mailConfigurationSet: string;
  /** Where the functions' own metrics are (METRICS_NAMESPACE): the stack's name. */
  metricsNamespace: string;
}

const sum = { period: fiveMinutes, statistic: 'Sum' };
const width = 12;

/**
 * One CloudWatch dashboard with what an operator looks at first: requests, latency,
 * errors, webhook deliveries, the pixel and mail. The alarms (monitoring.ts) say when to look.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const { api } = props;
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width });
    const functionsBy = (metric: (fn: IFunction) => IMetric) => Object.values(props.functions).map(metric);
    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      graph('Requests', [api.metricCount({ ...sum, label: 'Requests' })]),
      graph('Latency (ms)', [
        api.metricLatency({ period: fiveMinutes, statistic: 'p50', label: 'p50' }),
        api.metricLatency({ period: fiveMinutes, statistic: 'p99', label: 'p99' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('API errors', [api.metricClientError({ ...sum, label: '4xx' }), api.metricServerError({ ...sum, label: '5xx' })]),
      graph(
        'Function errors',
        functionsBy((fn) => fn.metricErrors(sum)),
      ),
    );
    this.dashboard.addWidgets(
      graph('Webhook functions', [
        props.fanout.metricInvocations({ ...sum, label: 'Fan-out invocations' }),
        props.worker.metricInvocations({ ...sum, label: 'Worker invocations' }),
        props.fanout.metricErrors({ ...sum, label: 'Fan-out errors' }),
        props.worker.metricErrors({ ...sum, label: 'Worker errors' }),
      ]),
      graph(
        'Delivery queue',
        [
          props.deliveryQueue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum', label: 'Waiting' }),
          ...Object.entries(props.deadLetterQueues).map(([name, queue]) =>
            queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum', label: name }),
          ),
        ],
        [
          props.deliveryQueue.metricApproximateAgeOfOldestMessage({
            period: fiveMinutes,
            statistic: 'Maximum',
            label: 'Oldest message (s)',
          }),
          oldestDueDeliveryAge(props.metricsNamespace).with({ label: 'Oldest due delivery (s)' }),
        ],
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Pixel',
        [props.pixel.metricInvocations({ ...sum, label: 'Invocations' }), props.pixel.metricErrors({ ...sum, label: 'Errors' })],
        [
          // The request lines' metrics (functions/core/http/request-log.ts) of the pixel's routes (`POST /api/v1/pixel/track`), by route and status class.
          new MathExpression({
            expression: `SEARCH('{${props.metricsNamespace},route,service,status_class} MetricName="Requests" pixel', 'Sum', ${fiveMinutes.toSeconds()})`,
            usingMetrics: {},
            label: '',
            period: fiveMinutes,
          }),
        ],
      ),
      graph(
        'Mail',
        (['Send', 'Delivery', 'Bounce', 'Complaint', 'Reject'] as const).map(
          (metricName) =>
            new Metric({
              namespace: 'AWS/SES',
              metricName,
              dimensionsMap: { 'ses:configuration-set': props.mailConfigurationSet },
              ...sum,
            }),
        ),
        [sesReputation('BounceRate'), sesReputation('ComplaintRate')],
      ),
    );
  }
}
