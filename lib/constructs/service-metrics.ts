import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { type IMetric, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { serviceName } from '#core/platform/telemetry';
import { oldestDueDeliveryMetric } from '#core/webhooks/sweeper';

/** The period of the alarms and the dashboard, unless a metric needs another. */
export const fiveMinutes = Duration.minutes(5);

/** When a rate of the API's requests counts: `requests` at least, or else `errors` at least. */
export interface RateFloor {
  requests: number;
  errors?: number;
}

/**
 * A share of the API's requests, in percent, over five minutes: 0 below the floor, so one
 * error at 3 a.m. is not a 100% rate.
 */
export function apiRateOf(api: RestApi, errors: IMetric, floor: RateFloor, label: string): MathExpression {
  const counts = [`requests >= ${floor.requests}`, ...(floor.errors ? [`errors >= ${floor.errors}`] : [])].join(' OR ');
  return new MathExpression({
    label,
    expression: `IF(${counts}, 100 * errors / requests, 0)`,
    usingMetrics: { errors, requests: api.metricCount({ period: fiveMinutes, statistic: 'Sum' }) },
    period: fiveMinutes,
  });
}

/** The sweeper's age of the oldest delivery that is due, in seconds (functions/webhook-sweeper). */
export const oldestDueDeliveryAge = (namespace: string) =>
  new Metric({
    namespace,
    metricName: oldestDueDeliveryMetric,
    dimensionsMap: { service: serviceName },
    statistic: 'Maximum',
    period: fiveMinutes,
  });

/** Lambda functions running at once in the account and region, every function of every stack. */
export const accountConcurrency = () =>
  new Metric({ namespace: 'AWS/Lambda', metricName: 'ConcurrentExecutions', statistic: 'Maximum', period: Duration.minutes(1) });

/**
 * The account's SES reputation (a fraction: 0.05 is 5%), which SES itself acts on: it
 * reviews the account at a 5% bounce or 0.1% complaint rate and may pause its sending at
 * 10% or 0.5%, whichever configuration set or stack the mail went through.
 */
export const sesReputation = (rate: 'BounceRate' | 'ComplaintRate') =>
  new Metric({ namespace: 'AWS/SES', metricName: `Reputation.${rate}`, statistic: 'Maximum', period: Duration.minutes(15) });
