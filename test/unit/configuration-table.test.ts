import { deployConfigOf, deploySettings, unknownContextKeys } from '#lib/deploy-config';
import { configurationTable } from '#lib/docs/configuration-table';
import { generatedSection } from '#lib/docs/generated-section';

describe('the deployment configuration', () => {
  it('is docs/operations.md’s table, key for key (npm run docs rewrites it)', () => {
    expect(generatedSection('docs/operations.md', 'deploy-configuration')).toBe(configurationTable());
  });

  it('lists every key in the table, each once', () => {
    const table = configurationTable();
    for (const key of Object.keys(deploySettings)) expect(table.split(`| \`${key}\` |`)).toHaveLength(2);
  });

  it('names every wrong key at once', () => {
    const context: Record<string, unknown> = { mailFrom: 'not an address', logRetentionDays: '91', kmsKey: 'maybe' };
    expect(() => deployConfigOf((key) => context[key])).toThrow(/mailFrom: .*; logRetentionDays: must be one of .*; kmsKey: /);
  });

  it('takes a custom domain only with its certificate', () => {
    const context: Record<string, unknown> = { mailFrom: 'ops@example.org', domainName: 'api.example.org' };
    expect(() => deployConfigOf((key) => context[key])).toThrow('domainName and certificateArn go together');
    const certificateArn = 'arn:aws:acm:eu-west-1:123456789012:certificate/abc';
    expect(deployConfigOf((key) => ({ ...context, certificateArn })[key]).customDomain).toEqual({
      domainName: 'api.example.org',
      certificateArn,
    });
  });

  it('fills in the defaults and reads switches given as strings, as -c gives them', () => {
    const context: Record<string, unknown> = { mailFrom: 'ops@example.org', webAcl: 'false', webhookSecretKeys: '2,1,2' };
    const config = deployConfigOf((key) => context[key]);
    expect(config).toMatchObject({ webAcl: false, webhookSecretKeys: ['2', '1'], logRetentionDays: 90, stageName: 'prod' });
  });

  it('says what a switch takes', () => {
    const context: Record<string, unknown> = { mailFrom: 'ops@example.org', webAcl: 'nope' };
    expect(() => deployConfigOf((key) => context[key])).toThrow('Invalid CDK context: webAcl: must be true or false');
  });

  it('finds a misspelt setting among the context, CDK’s own keys aside', () => {
    const context = {
      alarmEmial: 'ops@example.org',
      alarmEmail: 'ops@example.org',
      '@aws-cdk/core:checkSecretUsage': true,
      'aws:cdk:bundling-stacks': [],
    };
    expect(unknownContextKeys(context)).toEqual(['alarmEmial']);
  });
});
