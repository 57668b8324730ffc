import { Template } from 'aws-cdk-lib/assertions';
import { deployedApp } from '../support/cdk-app.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, any>; DeletionPolicy?: string }>;

// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis (both ways).
const synth = (kmsKey?: string | boolean) => {
  const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [], ...(kmsKey === undefined ? {} : { kmsKey }) });
  return Template.fromStack(stack).toJSON().Resources as Resources;
};
const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const existingKey = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

/** Where each resource that holds data names its key, if it does. */
const keysNamed = (resources: Resources) => ({
  table: ofType(resources, 'AWS::DynamoDB::Table').map(([, r]) => r.Properties.SSESpecification),
  secrets: ofType(resources, 'AWS::SecretsManager::Secret').map(([, r]) => r.Properties.KmsKeyId),
  queues: ofType(resources, 'AWS::SQS::Queue').map(([, r]) => r.Properties.KmsMasterKeyId),
  logGroups: ofType(resources, 'AWS::Logs::LogGroup').map(([, r]) => r.Properties.KmsKeyId),
});

describe('the customer-managed KMS key (context kmsKey)', () => {
  it('is off by default: every service encrypts with its own key', () => {
    const resources = synth();
    expect(ofType(resources, 'AWS::KMS::Key')).toEqual([]);
    const named = keysNamed(resources);
    expect(named.table).toEqual([{ SSEEnabled: true }]);
    for (const key of [...named.secrets, ...named.queues, ...named.logGroups]) expect(key).toBeUndefined();
    for (const [, queue] of ofType(resources, 'AWS::SQS::Queue')) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  describe('true: the stack makes one', () => {
    const resources = synth('true');
    const [[keyId, key]] = ofType(resources, 'AWS::KMS::Key') as [[string, Resources[string]]];
    const arn = { 'Fn::GetAtt': [keyId, 'Arn'] };

    it('rotates yearly and outlives the stack, like the table', () => {
      expect(ofType(resources, 'AWS::KMS::Key')).toHaveLength(1);
      expect(key.Properties.EnableKeyRotation).toBe(true);
      expect(key.DeletionPolicy).toBe('Retain');
    });

    it('encrypts the table, every secret, every queue and every log group', () => {
      const named = keysNamed(resources);
      expect(named.table).toEqual([{ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: arn }]);
      expect(named.secrets.length).toBeGreaterThan(0);
      expect(named.queues).toHaveLength(3);
      expect(named.logGroups.length).toBeGreaterThan(0);
      for (const used of [...named.secrets, ...named.queues, ...named.logGroups]) expect(used).toEqual(arn);
    });

    it("lets CloudWatch Logs use it for this account's and region's log groups only", () => {
      const statement = key.Properties.KeyPolicy.Statement.find((s: { Principal?: { Service?: unknown } }) =>
        JSON.stringify(s.Principal?.Service ?? '').includes('logs.'),
      );
      expect(statement).toMatchObject({
        Effect: 'Allow',
        Principal: { Service: { 'Fn::Join': ['', ['logs.', { Ref: 'AWS::Region' }, '.amazonaws.com']] } },
        Condition: { ArnLike: { 'kms:EncryptionContext:aws:logs:arn': expect.anything() } },
      });
    });

    it('lets whoever sends to the delivery queue encrypt with it, the Scheduler role included', () => {
      const [[schedulerRoleId]] = ofType(resources, 'AWS::IAM::Role').filter(([id]) => id.startsWith('WebhookDeliverySchedulerRole'));
      const grants = ofType(resources, 'AWS::IAM::Policy').filter(([, p]) =>
        p.Properties.PolicyDocument.Statement.some(
          (s: { Action: string | string[]; Resource: unknown }) =>
            [s.Action].flat().includes('kms:GenerateDataKey') && JSON.stringify(s.Resource) === JSON.stringify(arn),
        ),
      );
      expect(JSON.stringify(grants.map(([, p]) => p.Properties.Roles))).toContain(`{"Ref":"${schedulerRoleId}"}`);
    });
  });

  it('an existing key by ARN: used everywhere, and none made', () => {
    const resources = synth(existingKey);
    expect(ofType(resources, 'AWS::KMS::Key')).toEqual([]);
    const named = keysNamed(resources);
    expect(named.table).toEqual([{ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: existingKey }]);
    for (const used of [...named.secrets, ...named.queues, ...named.logGroups]) expect(used).toBe(existingKey);
  });

  it('refuses anything else at synthesis', () => {
    expect(() => synth('alias/mine')).toThrow(/Invalid CDK context: kmsKey/);
  });
});
