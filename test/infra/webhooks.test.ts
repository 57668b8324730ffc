import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { mainStackFunctionNames as functionNames } from '#lib/bundling';
import { Webhooks } from '#lib/constructs/webhooks';
import { deployedApp } from '../support/cdk-app.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

const templateOf = (stack: Stack) => {
  const template = Template.fromStack(stack);
  return { template, resources: template.toJSON().Resources as Resources };
};
// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
const synth = (context: Record<string, unknown> = {}) => templateOf(deployedApp({ 'aws:cdk:bundling-stacks': [], ...context }).stack);
const { template, resources } = synth();

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const idOf = (type: string, prefix: string) => ofType(type).find(([id]) => id.startsWith(prefix))![0];
const getAtt = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] });

const pascal = (name: string) => name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());
const functionIdOf = (name: string) => idOf('AWS::Lambda::Function', `${pascal(name)}Function`);
const functionOf = (name: string) => resources[functionIdOf(name)]!.Properties;
const environmentOf = (name: string) => functionOf(name).Environment.Variables as Record<string, unknown>;
const statementsOfRole = (roleId: string): Statement[] => [
  ...ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement),
  ...(resources[roleId]!.Properties.Policies ?? []).flatMap(
    (p: { PolicyDocument: { Statement: Statement[] } }) => p.PolicyDocument.Statement,
  ),
];
const statementsOf = (name: string) => statementsOfRole(functionOf(name).Role['Fn::GetAtt'][0]);
const actionsOf = (s: Statement) => [s.Action].flat();
const granting = (statements: Statement[], action: string) => statements.filter((s) => actionsOf(s).includes(action));

const queueId = idOf('AWS::SQS::Queue', 'WebhookDeliveryQueue');
const deadLetterId = idOf('AWS::SQS::Queue', 'WebhookDeliveryDeadLetterQueue');
const fanoutFailuresId = idOf('AWS::SQS::Queue', 'WebhookDeliveryFanoutFailures');
const schedulerRoleId = idOf('AWS::IAM::Role', 'WebhookDeliverySchedulerRole');
const groupId = idOf('AWS::Scheduler::ScheduleGroup', 'WebhookDeliveryScheduleGroup');
const tableId = idOf('AWS::DynamoDB::Table', 'DataTable');
const groupName = 'TenantApi-webhook-retries';
const schedulesArn = {
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, ':scheduler:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:schedule/${groupName}/*`],
  ],
};
const schedulers = ['webhook-worker', 'webhook-sweeper'];

describe('the table stream and the fan-out', () => {
  it('the table streams only the keys of each change: the fan-out reads each event from the table anyway', () => {
    expect(resources[tableId]!.Properties.StreamSpecification).toEqual({ StreamViewType: 'KEYS_ONLY' });
  });

  it('the fan-out reads the stream, filtered to inserted webhook events, in bisected batches of 100, ten retries, failures to a queue of their own', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => m.Properties.FunctionName.Ref === functionIdOf('webhook-fanout'),
    );
    expect(mappings).toHaveLength(1);
    const { FilterCriteria, ...mapping } = mappings[0]![1].Properties;
    expect(mapping).toEqual({
      FunctionName: { Ref: functionIdOf('webhook-fanout') },
      EventSourceArn: getAtt(tableId, 'StreamArn'),
      StartingPosition: 'LATEST',
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: getAtt(fanoutFailuresId) } },
    });
    expect(FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual([
      { eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [{ prefix: 'EVT#' }] }, sk: { S: ['EVT'] } } } },
    ]);
  });

  it('only the fan-out may read the stream', () => {
    const readers = functionNames.filter((name) =>
      granting(statementsOf(name), 'dynamodb:GetShardIterator').some((s) => JSON.stringify(s.Resource).includes('StreamArn')),
    );
    expect(readers).toEqual(['webhook-fanout']);
  });
});

describe('the delivery queue', () => {
  const queue = resources[queueId]!.Properties;

  it('is encrypted by SQS, hides a message for six times the worker’s timeout, and sends it to the dead-letter queue after five receives', () => {
    expect(functionOf('webhook-worker').Timeout).toBe(60);
    expect(queue).toEqual({
      QueueName: 'TenantApi-webhook-deliveries',
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 360,
      RedrivePolicy: { deadLetterTargetArn: getAtt(deadLetterId), maxReceiveCount: 5 },
    });
  });

  it('the dead-letter queue and the fan-out’s failures keep messages 14 days, encrypted, and outlive the stack as the table does', () => {
    for (const id of [deadLetterId, fanoutFailuresId]) {
      expect(resources[id]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
      expect(resources[id]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    }
    expect(resources[queueId]).not.toHaveProperty('DeletionPolicy', 'Retain');
  });

  it('only the delivery queue may use the dead-letter queue as its own; no queue may use the fan-out’s failures (Lambda sends there as the fan-out)', () => {
    const queueArn = {
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':sqs:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':TenantApi-webhook-deliveries',
        ],
      ],
    };
    expect(resources[deadLetterId]!.Properties.RedriveAllowPolicy).toEqual({ redrivePermission: 'byQueue', sourceQueueArns: [queueArn] });
    expect(resources[fanoutFailuresId]!.Properties.RedriveAllowPolicy).toEqual({ redrivePermission: 'denyAll' });
    // The name the dead-letter queue allows is the delivery queue's.
    expect(queue.QueueName).toBe('TenantApi-webhook-deliveries');
  });

  it('every queue refuses requests without TLS', () => {
    for (const id of [queueId, deadLetterId, fanoutFailuresId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: [
            {
              Action: 'sqs:*',
              Effect: 'Deny',
              Principal: { AWS: '*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              Resource: getAtt(id),
            },
          ],
        },
      });
    }
  });

  it('the worker takes it in batches of ten, at most ten invocations at once, and reports the messages that failed', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify(getAtt(queueId)),
    );
    expect(mappings.map(([, m]) => m.Properties)).toEqual([
      {
        FunctionName: { Ref: functionIdOf('webhook-worker') },
        EventSourceArn: getAtt(queueId),
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: 10 },
      },
    ]);
  });

  it('the fan-out, worker, sweeper and webhook-deliveries (manual retry) may send to it; no other function may', () => {
    const expected = ['webhook-fanout', 'webhook-worker', 'webhook-sweeper', 'webhook-deliveries'].sort();
    const sendsToQueue = (name: string) =>
      granting(statementsOf(name), 'sqs:SendMessage').some((s) => JSON.stringify(s.Resource) === JSON.stringify(getAtt(queueId)));
    expect(functionNames.filter(sendsToQueue).sort()).toEqual(expected);
    const toldTheQueue = functionNames.filter((name) => environmentOf(name).WEBHOOK_QUEUE_URL !== undefined).sort();
    expect(toldTheQueue).toEqual(expected);
    for (const name of expected) expect(environmentOf(name).WEBHOOK_QUEUE_URL).toEqual({ Ref: queueId });
  });
});

describe('EventBridge Scheduler', () => {
  it('the schedule group is named for the stack', () => {
    expect(resources[groupId]!.Properties).toEqual({ Name: groupName });
  });

  it("the Scheduler's role is assumed only by Scheduler for this account's group, and may only send to the delivery queue", () => {
    const role = resources[schedulerRoleId]!.Properties;
    expect(role.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': getAtt(groupId) } },
      },
    ]);
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(statementsOfRole(schedulerRoleId)).toEqual([{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: getAtt(queueId) }]);
  });

  it('the worker and the sweeper may create schedules in the group only, and pass the role to Scheduler only', () => {
    for (const name of schedulers) {
      const statements = statementsOf(name);
      expect(granting(statements, 'scheduler:CreateSchedule')).toEqual([
        { Effect: 'Allow', Action: 'scheduler:CreateSchedule', Resource: schedulesArn },
      ]);
      expect(granting(statements, 'iam:PassRole')).toEqual([
        {
          Effect: 'Allow',
          Action: 'iam:PassRole',
          Resource: getAtt(schedulerRoleId),
          Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
        },
      ]);
    }
  });

  it('no other function may schedule or pass a role', () => {
    const schedulesOrPasses = (name: string) =>
      statementsOf(name).some((s) => actionsOf(s).some((a) => a.startsWith('scheduler:') || a.startsWith('iam:')));
    expect(functionNames.filter(schedulesOrPasses).sort()).toEqual([...schedulers].sort());
  });
});

describe('the webhook-deliveries function', () => {
  it("may run a test send to its 20 s end: its timeout is API Gateway's 29 s, not the default 10 s", () => {
    expect(functionOf('webhook-deliveries').Timeout).toBe(29);
    expect(functionOf('webhooks').Timeout).toBe(10);
  });
});

describe('the worker and the sweeper', () => {
  const sweeperId = functionIdOf('webhook-sweeper');
  const ruleId = idOf('AWS::Events::Rule', 'WebhookDeliverySweeperSchedule');

  it('are told the queue, the group, the role, the attempt timeout and the disabling threshold', () => {
    for (const name of schedulers) {
      expect(environmentOf(name)).toMatchObject({
        WEBHOOK_QUEUE_URL: { Ref: queueId },
        WEBHOOK_QUEUE_ARN: getAtt(queueId),
        WEBHOOK_SCHEDULE_GROUP: groupName,
        WEBHOOK_SCHEDULER_ROLE_ARN: getAtt(schedulerRoleId),
        WEBHOOK_TIMEOUT_MS: '30000',
        WEBHOOK_DISABLE_AFTER: '15',
      });
    }
  });

  it('the fan-out and webhook-deliveries are told only the queue URL among the delivery settings', () => {
    for (const name of functionNames.filter((n) => !schedulers.includes(n))) {
      // The keys of secrets have a test of their own (below).
      const webhookSettings = Object.keys(environmentOf(name)).filter(
        (key) => key.startsWith('WEBHOOK_') && key !== 'WEBHOOK_SECRET_KEY_ARNS',
      );
      expect({ name, webhookSettings }).toEqual({
        name,
        webhookSettings: environmentOf(name).WEBHOOK_QUEUE_URL ? ['WEBHOOK_QUEUE_URL'] : [],
      });
    }
  });

  it('all three write items of the table itself, never through an index wildcard (least-privilege.test.ts checks the actions)', () => {
    for (const name of ['webhook-fanout', ...schedulers]) {
      const [table] = granting(statementsOf(name), 'dynamodb:PutItem');
      expect(table!.Resource).toEqual(getAtt(tableId));
      expect(JSON.stringify(statementsOf(name))).not.toContain('/index/*');
    }
  });

  it('no webhook role grants a wildcard action', () => {
    const roles = [...['webhook-fanout', ...schedulers].map((name) => functionOf(name).Role['Fn::GetAtt'][0] as string), schedulerRoleId];
    const actions = roles.flatMap((roleId) => statementsOfRole(roleId).flatMap(actionsOf));
    expect(actions.filter((a) => a.includes('*'))).toEqual([]);
  });

  it('an EventBridge rule runs the sweeper every minute, the only thing that invokes it, and a failed sweep is left to the next', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [{ Arn: getAtt(sweeperId), Id: 'Target0', RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 60 } }],
    });
    const permissions = ofType('AWS::Lambda::Permission').filter(
      ([, p]) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify(getAtt(sweeperId)),
    );
    expect(permissions.map(([, p]) => p.Properties)).toEqual([
      { Action: 'lambda:InvokeFunction', FunctionName: getAtt(sweeperId), Principal: 'events.amazonaws.com', SourceArn: getAtt(ruleId) },
    ]);
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: sweeperId }, MaximumRetryAttempts: 0 });
  });
});

describe('context', () => {
  it('webhookTimeoutMs and webhookDisableAfter reach the settings; the worker’s timeout and the visibility timeout follow the attempt timeout', () => {
    const custom = synth({ webhookTimeoutMs: '90000', webhookDisableAfter: '3' });
    const functionNamed = (name: string) =>
      Object.entries(custom.resources).find(([id]) => id.startsWith(`${pascal(name)}Function`))![1].Properties;
    for (const name of schedulers)
      expect(functionNamed(name).Environment.Variables).toMatchObject({ WEBHOOK_TIMEOUT_MS: '90000', WEBHOOK_DISABLE_AFTER: '3' });
    expect(functionNamed('webhook-worker').Timeout).toBe(120);
    custom.template.hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: 720 });
  });

  it.each([
    [{ webhookTimeoutMs: 'soon' }, 'webhookTimeoutMs'],
    [{ webhookTimeoutMs: 880_000 }, 'webhookTimeoutMs'],
    [{ webhookDisableAfter: 0 }, 'webhookDisableAfter'],
  ])('refuses %p at synthesis, naming it', (context, key) => {
    expect(() => synth(context)).toThrow(new RegExp(`Invalid CDK context: ${key}:`));
  });
});

describe('the Webhooks construct', () => {
  it('gives each enqueuer sqs:SendMessage on the queue and its URL, and nothing else', () => {
    const stack = new Stack();
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING }, stream: StreamViewType.NEW_IMAGE });
    const fn = (id: string) =>
      new LambdaFunction(stack, id, { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export {}') });
    new Webhooks(stack, 'Webhooks', {
      table,
      fanout: fn('Fanout'),
      worker: fn('Worker'),
      sweeper: fn('Sweeper'),
      enqueuers: [fn('Retrier')],
      schedulers: [],
      attemptTimeoutMs: 30_000,
      disableAfter: 15,
      workerMaxConcurrency: 10,
    });
    const bare = templateOf(stack);
    const queue = Object.keys(bare.template.findResources('AWS::SQS::Queue')).find((id) => id.startsWith('WebhooksQueue'))!;
    const retrier = Object.entries(bare.resources).find(([id, r]) => id.startsWith('Retrier') && r.Type === 'AWS::Lambda::Function')![1]
      .Properties;
    expect(retrier.Environment.Variables).toEqual({ WEBHOOK_QUEUE_URL: { Ref: queue } });
    const roleId = retrier.Role['Fn::GetAtt'][0];
    const statements = Object.values(bare.resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toEqual([{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [queue, 'Arn'] } }]);
  });
});

describe('the keys of webhook secrets', () => {
  const keyIdsOf = (found: Record<string, unknown>) => Object.keys(found).filter((id) => id.startsWith('WebhookSecretKeys'));
  /** The secrets whose ARNs a function's WEBHOOK_SECRET_KEY_ARNS names, in order. */
  const keysIn = (environment: Record<string, unknown>) =>
    [...JSON.stringify(environment.WEBHOOK_SECRET_KEY_ARNS ?? '').matchAll(/\{"Ref":"(WebhookSecretKeys[^"]+)"\}/g)].map((m) => m[1]);

  it('are generated by Secrets Manager, kept when the stack goes (as the table is), one by default', () => {
    const keys = keyIdsOf(template.findResources('AWS::SecretsManager::Secret'));
    expect(keys).toHaveLength(1);
    expect(template.toJSON().Resources[keys[0]!]).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true } },
    });
  });

  it('reach only the functions that seal or open secrets, by ARN, which alone may read them', () => {
    const [key] = keyIdsOf(template.findResources('AWS::SecretsManager::Secret'));
    const holders = functionNames.filter((name) => keysIn(environmentOf(name)).length > 0);
    expect(holders.sort()).toEqual(['webhook-deliveries', 'webhook-worker', 'webhooks']);
    for (const name of holders) expect(environmentOf(name).WEBHOOK_SECRET_KEY_ARNS).toEqual({ Ref: key });
    const readers = functionNames.filter((name) =>
      granting(statementsOf(name), 'secretsmanager:GetSecretValue').some((s) => JSON.stringify(s.Resource).includes(`"${key}"`)),
    );
    expect(readers.sort()).toEqual(holders);
    for (const name of functionNames) expect(JSON.stringify(environmentOf(name))).not.toContain('{{resolve:secretsmanager:');
  });

  it('rotate by naming a new key first: it seals, the old one still opens', () => {
    const rotated = synth({ webhookSecretKeys: '2,1' });
    const keys = keyIdsOf(rotated.template.findResources('AWS::SecretsManager::Secret'));
    expect(keys).toHaveLength(2);
    const lists = Object.values(rotated.resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((r) => keysIn(r.Properties.Environment.Variables))
      .filter((list) => list.length > 0);
    expect(lists).toHaveLength(3);
    const [listed] = lists;
    for (const list of lists) expect(list).toEqual(listed);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatch(/^WebhookSecretKeys2/);
    expect(listed[1]).toBe(keyIdsOf(template.findResources('AWS::SecretsManager::Secret'))[0]);
  });
});
