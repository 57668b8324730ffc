import { Metrics } from '@aws-lambda-powertools/metrics';
import { serviceName } from '#core/platform/telemetry';
import { addOldestDueDelivery } from '#core/webhooks/sweeper';
import { oldestDueDeliveryAge } from '#lib/constructs/service-metrics';

describe('the sweeper’s oldest-due-delivery metric', () => {
  it('is the very metric the OldestDueDelivery alarm reads, in seconds, 0 included', () => {
    // The stack sets each function's METRICS_NAMESPACE to its name, and the alarm reads that namespace.
    const metrics = new Metrics({ serviceName, namespace: 'StagingApi' });
    addOldestDueDelivery(metrics, { events: 0, deliveries: 0, oldestDueDeliverySeconds: 0 });
    const line = metrics.serializeMetrics() as ReturnType<Metrics['serializeMetrics']> & Record<string, unknown>;

    const alarmed = oldestDueDeliveryAge('StagingApi').toMetricConfig().metricStat!;
    expect(line._aws.CloudWatchMetrics).toEqual([
      { Namespace: alarmed.namespace, Dimensions: [['service']], Metrics: [{ Name: alarmed.metricName, Unit: 'Seconds' }] },
    ]);
    expect(alarmed.dimensions).toEqual([{ name: 'service', value: line.service }]);
    expect(line[alarmed.metricName]).toBe(0);
  });
});
