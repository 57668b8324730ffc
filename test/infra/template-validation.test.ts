import { CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { deployedApp } from '../support/cdk-app.ts';

/**
 * CloudFormation's own validation of the synthesized templates (cdk.json's
 * validateAgainstDefaultRules makes a finding fail synthesis), run here once over the option
 * sets the other infra tests synthesize with it off: together they set every option they use.
 */
const bundlingOff = { 'aws:cdk:bundling-stacks': [] };
const optionSets: Record<string, Record<string, unknown>> = {
  'the defaults': {},
  'every option away from its default': {
    stackName: 'StagingApi',
    stageName: 'live',
    kmsKey: 'true',
    alarmEmail: 'ops@acme.test',
    accountConcurrencyLimit: '3000',
    logRetentionDays: '400',
    tableMaxReadRequestUnits: '4000',
    tableMaxWriteRequestUnits: 1000,
    upgradeUrl: 'https://acme.test/pricing',
    webhookSecretKeys: '2,1',
    webhookTimeoutMs: '90000',
    webhookDisableAfter: '3',
    corsAllowedOrigins: 'https://app.example.com,https://admin.example.com',
    deprecatedAt: '2027-01-31',
    sunsetAt: '2027-07-31',
    deprecationLink: 'https://example.com/deprecations/v1',
    maintenanceMode: 'true',
    webAcl: false,
    domainName: 'api.example.com',
    certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc',
    authorizerReservedConcurrency: 50,
    mailFrom: 'Acme <no-reply@mail.acme.test>',
    publicBaseUrl: 'https://api.acme.test',
  },
  'the other choices: no documentation, an existing key and WebACL': {
    stackName: 'Acme',
    documentationEnabled: false,
    kmsKey: 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
    webAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/shared/0123abcd',
  },
};

describe("CloudFormation's validation of the templates", () => {
  it.each(Object.entries(optionSets))('passes with %s', (_, context) => {
    const { app } = deployedApp({ ...bundlingOff, ...context }, { validated: true });
    expect(() => app.synth()).not.toThrow();
  });

  it('fails synthesis on a resource CloudFormation would refuse, which the other infra tests do not check', () => {
    const withBroken = (validated: boolean) => {
      const { stack } = deployedApp(bundlingOff, { validated });
      new CfnResource(stack, 'Broken', { type: 'AWS::SQS::Queue', properties: { VisibilityTimeout: 'not a number' } });
      return () => Template.fromStack(stack);
    };
    expect(withBroken(true)).toThrow(/VisibilityTimeout/);
    expect(withBroken(false)).not.toThrow();
  });
});
