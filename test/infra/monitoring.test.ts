import { Duration, NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Alarm, Dashboard, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { mainStackFunctionNames } from '#lib/bundling';
import { deployedApp } from '../support/cdk-app.ts';

type Resource = { Type: string; Properties: Record<string, any> };
type Resources = Record<string, Resource>;

// No stack is bundled: the templates are the same, and nag.test.ts bundles in its full synthesis.
const bundlingOff = { 'aws:cdk:bundling-stacks': [] };

const synth = (context: Record<string, unknown> = {}) => {
  const { stack } = deployedApp({ ...bundlingOff, ...context });
  const nested = stack.node.findChild('Monitoring') as NestedStack;
  const main = Template.fromStack(stack).toJSON();
  const template = Template.fromStack(nested);
  const resources = template.toJSON().Resources as Resources;
  const nestedStackId = Object.keys(main.Resources).find(
    (id) => main.Resources[id].Type === 'AWS::CloudFormation::Stack' && id.startsWith('Monitoring'),
  )!;
  /** A nested template's `{ Ref: parameter }` as the main stack fills it in (the main stack's own reference). */
  const resolve = (value: unknown): unknown => {
    const ref = (value as { Ref?: string }).Ref;
    return ref && main.Resources[nestedStackId].Properties.Parameters?.[ref]
      ? main.Resources[nestedStackId].Properties.Parameters[ref]
      : value;
  };
  return { stack, main, template, resources, resolve };
};

const { stack, main, template, resources, resolve } = synth();
const ofType = (type: string, within: Resources = resources) => Object.entries(within).filter(([, r]) => r.Type === type);
const alarms = Object.fromEntries(ofType('AWS::CloudWatch::Alarm').map(([id, r]) => [id.replace(/[0-9A-F]{8}$/, ''), r.Properties]));
const topicId = ofType('AWS::SNS::Topic')[0]![0];
const pascal = (name: string) => name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());
const functionIdOf = (name: string) =>
  Object.keys(main.Resources).find(
    (id) => main.Resources[id].Type === 'AWS::Lambda::Function' && id.startsWith(`${pascal(name)}Function`),
  )!;
const queueIdOf = (prefix: string) =>
  Object.keys(main.Resources).find((id) => main.Resources[id].Type === 'AWS::SQS::Queue' && id.startsWith(prefix))!;
/** The dimensions of an alarm's one metric, each value as the main stack names it. */
const dimensionsOf = (alarm: Record<string, any>) =>
  Object.fromEntries((alarm.Dimensions ?? []).map((d: { Name: string; Value: unknown }) => [d.Name, resolve(d.Value)]));

/** Every stack of the app, the nested ones included. */
const stacksOf = (root: Stack): Stack[] => [root, ...root.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack)];

describe('the monitoring', () => {
  it('is a nested stack of its own, so the main stack stays under 500 resources', () => {
    expect(Object.keys(main.Resources).length).toBeLessThan(500);
    expect(ofType('AWS::CloudWatch::Alarm', main.Resources)).toEqual([]);
    expect(Object.keys(resources).length).toBeLessThan(500);
  });

  it('sends every alarm of every stack, and its recovery, to the alarm topic', () => {
    // One more alarm in the main stack, as a later change might add: it notifies too.
    const { stack: withExtra } = deployedApp(bundlingOff);
    new Alarm(withExtra, 'Extra', {
      metric: new Metric({ namespace: 'Test', metricName: 'Extra', period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
    });
    const seen: string[] = [];
    for (const each of stacksOf(withExtra)) {
      for (const [id, alarm] of ofType('AWS::CloudWatch::Alarm', Template.fromStack(each).toJSON().Resources)) {
        const { AlarmActions: actions, OKActions: ok } = alarm.Properties;
        if (each.node.id === 'Monitoring') expect({ id, actions, ok }).toEqual({ id, actions: [{ Ref: topicId }], ok: [{ Ref: topicId }] });
        // Elsewhere the topic arrives as the monitoring stack's output (or, in another nested stack, a parameter).
        else
          for (const notified of [actions, ok])
            expect({ id, notified: JSON.stringify(notified) }).toEqual({ id, notified: expect.stringMatching(/AlarmTopic/) });
        seen.push(id);
      }
    }
    expect(seen).toHaveLength(Object.keys(alarms).length + 1);
    expect(seen).toContainEqual(expect.stringMatching(/^Extra/));
  });

  it("has a topic encrypted with its own rotated key, which this account's CloudWatch may use, reachable over TLS only", () => {
    const [keyId, key] = ofType('AWS::KMS::Key')[0]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    );
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    const [, policy] = ofType('AWS::SNS::TopicPolicy')[0]!;
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('subscribes alarmEmail to the topic, and nobody without it', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    const subscribed = synth({ alarmEmail: 'ops@acme.test' });
    subscribed.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@acme.test',
      TopicArn: { Ref: topicId },
    });
    expect(() => synth({ alarmEmail: 'not an address' })).toThrow('Invalid CDK context: alarmEmail');
  });

  it("names each alarm after the stack and its id, and reads the API's figures and the functions' own metrics by the stack's name", () => {
    for (const [id, alarm] of ofType('AWS::CloudWatch::Alarm')) {
      expect(alarm.Properties.AlarmName).toMatch(/^TenantApi-[A-Za-z0-9-]+$/);
      expect(alarm.Properties.AlarmName.replaceAll('-', '')).toBe(`TenantApi${id.replace(/[0-9A-F]{8}$/, '')}`);
    }
    Template.fromStack(stack).hasResourceProperties('AWS::ApiGateway::RestApi', { Name: 'TenantApi' });
    expect(JSON.stringify(alarms.ApiLatencyP99)).toContain('{"Name":"ApiName","Value":"TenantApi"}');
    expect(alarms.OldestDueDelivery).toMatchObject({ Namespace: 'TenantApi' });
    for (const { Properties: p } of Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'))) {
      expect(p.Environment.Variables.METRICS_NAMESPACE).toBe('TenantApi');
    }
    const staging = synth({ stackName: 'StagingApi' });
    const stagingAlarms = Object.values(staging.resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(stagingAlarms.every((a) => a.Properties.AlarmName.startsWith('StagingApi-'))).toBe(true);
  });

  it('watches every function, the documentation nested stack’s included, for errors and, ten to an alarm, for throttles', () => {
    for (const name of mainStackFunctionNames) {
      // The alarm's id is the function's name and Errors; its logical id keeps the letters and digits.
      const errors = alarms[`${name.replaceAll('-', '')}Errors`];
      expect({ name, ...errors }).toMatchObject({ name, MetricName: 'Errors', Threshold: 1 });
      expect(dimensionsOf(errors!)).toEqual({ FunctionName: { Ref: functionIdOf(name) } });
    }
    const throttled = Object.entries(alarms)
      .filter(([id]) => id.startsWith('FunctionThrottles'))
      .map(([, alarm]) => alarm.Metrics.filter((m: Record<string, any>) => m.MetricStat));
    for (const metrics of throttled) expect(metrics.length).toBeLessThanOrEqual(10);
    const watched = throttled.flat().map((m: Record<string, any>) => resolve(m.MetricStat.Metric.Dimensions[0].Value));
    expect(watched).toEqual(expect.arrayContaining(mainStackFunctionNames.map((name) => ({ Ref: functionIdOf(name) }))));
    // And the docs function, which reaches the monitoring stack from its own nested stack.
    expect(watched).toHaveLength(mainStackFunctionNames.length + 1);
    expect(alarms.docsErrors).toMatchObject({ MetricName: 'Errors', Threshold: 1 });
  });

  it.each([
    ['WebhookDeadLetters', 'WebhookDeliveryDeadLetterQueue'],
    ['WebhookFanoutFailures', 'WebhookDeliveryFanoutFailures'],
  ])('fires %s on the first message visible in its dead-letter queue', (name, queue) => {
    expect(alarms[name]).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Statistic: 'Maximum',
      Threshold: 1,
      EvaluationPeriods: 1,
    });
    expect(dimensionsOf(alarms[name]!)).toEqual({ QueueName: { 'Fn::GetAtt': [queueIdOf(queue), 'QueueName'] } });
  });

  it('alarms on the 5xx rate with a floor of requests, and on a 4xx surge', () => {
    expect(alarms.ApiServerErrorRate).toMatchObject({ Threshold: 5, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    expect(alarms.ApiServerErrorRate!.Metrics[0].Expression).toBe('IF(requests >= 20 OR errors >= 5, 100 * errors / requests, 0)');
    expect(alarms.ApiServerErrorRate!.Metrics.map((m: Record<string, any>) => m.MetricStat?.Metric.MetricName)).toEqual([
      undefined,
      '5XXError',
      'Count',
    ]);
    expect(alarms.ApiClientErrorSurge).toMatchObject({ Threshold: 25, EvaluationPeriods: 3 });
    expect(alarms.ApiClientErrorSurge!.Metrics[0].Expression).toBe('IF(requests >= 100, 100 * errors / requests, 0)');
    expect(alarms.ApiClientErrorSurge!.Metrics[1].MetricStat.Metric.MetricName).toBe('4XXError');
  });

  it.each([
    [
      'ApiLatencyP99',
      { Namespace: 'AWS/ApiGateway', MetricName: 'Latency', ExtendedStatistic: 'p99', Threshold: 3000, EvaluationPeriods: 3 },
    ],
    [
      'AuthorizerLatencyP99',
      { Namespace: 'AWS/Lambda', MetricName: 'Duration', ExtendedStatistic: 'p99', Threshold: 1000, EvaluationPeriods: 3 },
    ],
    [
      'StreamIteratorAge',
      { Namespace: 'AWS/Lambda', MetricName: 'IteratorAge', Statistic: 'Maximum', Threshold: 600_000, EvaluationPeriods: 2 },
    ],
    [
      'DeliveryQueueOldestMessage',
      { Namespace: 'AWS/SQS', MetricName: 'ApproximateAgeOfOldestMessage', Statistic: 'Maximum', Threshold: 1800 },
    ],
    [
      'OldestDueDelivery',
      {
        Namespace: 'TenantApi',
        MetricName: 'OldestDueDeliveryAge',
        Dimensions: [{ Name: 'service', Value: 'tenant-api' }],
        Statistic: 'Maximum',
        Threshold: 600,
        EvaluationPeriods: 2,
        TreatMissingData: 'breaching',
      },
    ],
    ['SesBounceRate', { Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate', Threshold: 0.05 }],
    ['SesComplaintRate', { Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate', Threshold: 0.001 }],
    ['TableThrottles', { Threshold: 1 }],
    ['TableSystemErrors', { Threshold: 1 }],
  ])('alarms %s', (name, expected) => {
    expect(alarms[name]).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', ...expected });
    expect(alarms[name]!.AlarmDescription).toContain(`docs/operations.md, Alarms: ${name}`);
  });

  it('reads the authorizer’s duration, the fan-out’s iterator age and the delivery queue’s oldest message', () => {
    expect(dimensionsOf(alarms.AuthorizerLatencyP99!)).toEqual({ FunctionName: { Ref: functionIdOf('authorizer') } });
    expect(dimensionsOf(alarms.StreamIteratorAge!)).toEqual({ FunctionName: { Ref: functionIdOf('webhook-fanout') } });
    expect(dimensionsOf(alarms.DeliveryQueueOldestMessage!)).toEqual({
      QueueName: { 'Fn::GetAtt': [queueIdOf('WebhookDeliveryQueue'), 'QueueName'] },
    });
  });

  it('alarms at 80% of the account’s Lambda concurrency, from accountConcurrencyLimit (1000 by default)', () => {
    const concurrency = { Namespace: 'AWS/Lambda', MetricName: 'ConcurrentExecutions', Statistic: 'Maximum' };
    expect(alarms.AccountConcurrency).toMatchObject({ ...concurrency, Threshold: 800 });
    expect(alarms.AccountConcurrency!.Dimensions).toBeUndefined();
    synth({ accountConcurrencyLimit: '3000' }).template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      ...concurrency,
      Threshold: 2400,
    });
  });
});

describe('the dashboard', () => {
  const [, dashboard] = ofType('AWS::CloudWatch::Dashboard')[0]!;
  const body = JSON.stringify(dashboard.Properties.DashboardBody);
  /** The part of the body from a widget's title to the next widget's. */
  const widgetOf = (title: string) => {
    const start = body.indexOf(`\\"title\\":\\"${title}\\"`);
    const next = body.indexOf('\\"title\\"', start + 1);
    return body.slice(start, next === -1 ? undefined : next);
  };

  it('is one dashboard', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    expect(stack.node.findAll().filter((c) => c instanceof Dashboard)).toHaveLength(1);
  });

  it.each([
    ['Requests', ['\\"AWS/ApiGateway\\",\\"Count\\"']],
    ['Latency (ms)', ['\\"stat\\":\\"p50\\"', '\\"stat\\":\\"p99\\"']],
    ['API errors', ['\\"4XXError\\"', '\\"5XXError\\"']],
    ['Function errors', ['\\"AWS/Lambda\\",\\"Errors\\"']],
    ['Webhook functions', ['\\"Invocations\\"', '\\"Errors\\"']],
    [
      'Delivery queue',
      ['ApproximateNumberOfMessagesVisible', 'ApproximateAgeOfOldestMessage', '\\"TenantApi\\",\\"OldestDueDeliveryAge\\"'],
    ],
    ['Pixel', ['\\"Invocations\\"', '\\"Errors\\"', 'SEARCH(', 'MetricName=\\\\\\"Requests\\\\\\" pixel']],
    ['Mail', ['\\"Bounce\\"', '\\"Complaint\\"', 'Reputation.BounceRate', 'ses:configuration-set']],
  ])('shows %s', (title, metrics) => {
    expect(body).toContain(`\\"title\\":\\"${title}\\"`);
    for (const metric of metrics) expect({ title, widget: widgetOf(title) }).toEqual({ title, widget: expect.stringContaining(metric) });
  });

  it('graphs every function’s errors', () => {
    const parameters: Record<string, unknown> =
      main.Resources[Object.keys(main.Resources).find((id) => id.startsWith('MonitoringNestedStack'))!].Properties.Parameters;
    for (const name of mainStackFunctionNames) {
      const parameter = Object.keys(parameters).find((p) => JSON.stringify(parameters[p]) === JSON.stringify({ Ref: functionIdOf(name) }));
      expect({ name, graphed: widgetOf('Function errors').includes(`{"Ref":"${parameter}"}`) }).toEqual({ name, graphed: true });
    }
  });
});
