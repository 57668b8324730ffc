import { Template } from 'aws-cdk-lib/assertions';
import { deployedApp } from '../support/cdk-app.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

// No stack is bundled: the templates are the same, and nag.test.ts bundles in its full synthesis.
const synth = (context: Record<string, unknown> = {}) => {
  const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [], ...context });
  return Template.fromStack(stack).toJSON() as { Resources: Resources; Outputs: Record<string, { Value: unknown }> };
};
const { Resources: resources, Outputs: outputs } = synth();

const idOf = (type: string, prefix: string) => Object.keys(resources).find((id) => resources[id]!.Type === type && id.startsWith(prefix))!;
const monitoringId = idOf('AWS::CloudFormation::Stack', 'MonitoringNestedStack');
const stageId = idOf('AWS::ApiGateway::Stage', 'ApiRestApiDeploymentStage');
const apiUrl = (path: string) => ({
  'Fn::Join': [
    '',
    [
      'https://',
      { Ref: idOf('AWS::ApiGateway::RestApi', 'ApiRestApi') },
      '.execute-api.',
      { Ref: 'AWS::Region' },
      '.',
      { Ref: 'AWS::URLSuffix' },
      '/',
      { Ref: stageId },
      path,
    ],
  ],
});

describe('the outputs', () => {
  it.each([
    ['ApiUrl', apiUrl('/api/v1')],
    ['DocsUrl', apiUrl('/api/docs')],
    ['TableName', { Ref: idOf('AWS::DynamoDB::Table', 'DataTable') }],
    ['BootstrapCommand', { 'Fn::Join': ['', ['AWS_REGION=', { Ref: 'AWS::Region' }, ' npm run admin -- bootstrap --stack TenantApi']] }],
    ['DeliveryQueueUrl', { Ref: idOf('AWS::SQS::Queue', 'WebhookDeliveryQueue') }],
    ['DeliveryQueueArn', { 'Fn::GetAtt': [idOf('AWS::SQS::Queue', 'WebhookDeliveryQueue'), 'Arn'] }],
    ['DeliveryDeadLetterQueueUrl', { Ref: idOf('AWS::SQS::Queue', 'WebhookDeliveryDeadLetterQueue') }],
    ['DeliveryDeadLetterQueueArn', { 'Fn::GetAtt': [idOf('AWS::SQS::Queue', 'WebhookDeliveryDeadLetterQueue'), 'Arn'] }],
    ['FanoutFailuresQueueUrl', { Ref: idOf('AWS::SQS::Queue', 'WebhookDeliveryFanoutFailures') }],
    ['AccessLogGroup', { Ref: idOf('AWS::Logs::LogGroup', 'ApiAccessLogs') }],
    ['AuthorizerLogGroup', { Ref: idOf('AWS::Logs::LogGroup', 'AuthorizerLogs') }],
    ['CursorSigningKeyArn', { Ref: idOf('AWS::SecretsManager::Secret', 'CursorSigningKey') }],
    ['AlarmTopicArn', { 'Fn::GetAtt': [monitoringId, expect.stringMatching(/^Outputs\..*AlarmTopic.*Ref$/)] }],
  ])('%s', (name, value) => {
    expect(outputs[name]!.Value).toEqual(value);
  });

  it('names the stack in the bootstrap command, and has no docs URL without the documentation', () => {
    const other = synth({ stackName: 'Acme', documentationEnabled: false }).Outputs;
    expect(JSON.stringify(other.BootstrapCommand!.Value)).toContain('bootstrap --stack Acme');
    expect(other.DocsUrl).toBeUndefined();
  });
});

describe('log retention', () => {
  const retentions = (within: Resources) =>
    Object.entries(within)
      .filter(([id, r]) => r.Type === 'AWS::Logs::LogGroup' && /Logs[0-9A-F]{8}$/.test(id) && !id.startsWith('Api'))
      .map(([, r]) => r.Properties.RetentionInDays);

  it('keeps each function’s logs 90 days by default, logRetentionDays when given', () => {
    expect(retentions(resources).length).toBeGreaterThan(10);
    expect(new Set(retentions(resources))).toEqual(new Set([90]));
    expect(new Set(retentions(synth({ logRetentionDays: '400' }).Resources))).toEqual(new Set([400]));
  });

  it.each(['42', '9999'])('refuses logRetentionDays=%s, naming the values CloudWatch Logs accepts', (days) => {
    expect(() => synth({ logRetentionDays: days })).toThrow(
      /Invalid CDK context: logRetentionDays: must be one of 1, 3, 5, 7, 14, 30, 60, 90,/,
    );
  });

  it('refuses a logRetentionDays that is no number', () => {
    expect(() => synth({ logRetentionDays: 'forever' })).toThrow('Invalid CDK context: logRetentionDays: must be a number');
  });
});
