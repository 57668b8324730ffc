import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { createApp } from '../../bin/app.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

const synth = (context: Record<string, unknown> = {}) => {
  // No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
  const { stack } = createApp({ 'aws:cdk:bundling-stacks': [], ...context }, { builtinCloudFormationValidation: false });
  return { stack, template: Template.fromStack(stack) };
};

const { stack, template } = synth({ mailFrom: 'Acme <no-reply@mail.acme.test>', publicBaseUrl: 'https://api.acme.test' });
const resources = template.toJSON().Resources as Resources;

/** The function's logical id whose code is bundled from functions/<name>, by the construct id the stack gives it. */
const functionIds = Object.entries(resources)
  .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
  .map(([id]) => id);
const functionIdOf = (constructId: string) => functionIds.find((id) => id.startsWith(`${constructId}Function`))!;
const roleIdOf = (functionId: string) => resources[functionId]!.Properties.Role['Fn::GetAtt'][0] as string;

/** Every statement granting an SES action, with the role it is attached to. */
const sesStatements = Object.values(resources)
  .filter((r) => r.Type === 'AWS::IAM::Policy')
  .flatMap((policy) =>
    (policy.Properties.PolicyDocument.Statement as Record<string, any>[])
      .filter((statement) => [statement.Action].flat().some((action: string) => action.startsWith('ses:')))
      .flatMap((statement) => (policy.Properties.Roles as { Ref: string }[]).map((role) => ({ role: role.Ref, statement }))),
  );

const identityArn = (identity: string) => ({
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:identity/${identity}`],
  ],
});

describe('mail', () => {
  const senders = ['Users', 'Sessions'].map(functionIdOf);

  const [configurationSetId, configurationSet] = Object.entries(resources).find(([, r]) => r.Type === 'AWS::SES::ConfigurationSet')!;

  it('lets only the users and sessions functions send, ses:SendEmail alone, as MAIL_FROM through its own SES identity and the configuration set', () => {
    expect(sesStatements.map((s) => s.role).sort()).toEqual(senders.map(roleIdOf).sort());
    for (const { statement } of sesStatements) {
      expect(statement).toEqual({
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Resource: [
          {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':ses:',
                { Ref: 'AWS::Region' },
                ':',
                { Ref: 'AWS::AccountId' },
                ':configuration-set/',
                { Ref: configurationSetId },
              ],
            ],
          },
          identityArn('mail.acme.test'),
          identityArn('no-reply@mail.acme.test'),
        ],
        Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@mail.acme.test' } },
      });
    }
  });

  it('gives the senders MAIL_FROM, MAIL_CONFIGURATION_SET and PUBLIC_BASE_URL, and no other function either', () => {
    for (const id of functionIds) {
      const { MAIL_FROM, MAIL_CONFIGURATION_SET, PUBLIC_BASE_URL } = resources[id]!.Properties.Environment.Variables;
      const expected = senders.includes(id)
        ? {
            MAIL_FROM: 'Acme <no-reply@mail.acme.test>',
            MAIL_CONFIGURATION_SET: { Ref: configurationSetId },
            PUBLIC_BASE_URL: 'https://api.acme.test',
          }
        : {};
      expect({ id, MAIL_FROM, MAIL_CONFIGURATION_SET, PUBLIC_BASE_URL }).toEqual({ id, ...expected });
    }
  });

  it('sends through a configuration set that keeps bounced and complaining addresses from being mailed again', () => {
    expect(configurationSet.Properties).toEqual({ SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] } });
  });

  it('turns each message’s send, delivery, bounce, complaint and rejection into CloudWatch metrics by configuration set', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: configurationSetId },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['send', 'delivery', 'bounce', 'complaint', 'reject'],
        CloudWatchDestination: {
          DimensionConfigurations: [
            { DimensionName: 'ses:configuration-set', DimensionValueSource: 'messageTag', DefaultDimensionValue: 'none' },
          ],
        },
      },
    });
    // Its alarms, on the account's reputation, are the monitoring's (test/infra/monitoring.test.ts).
  });

  it('leaves PUBLIC_BASE_URL unset without the context value (links then use the API URL), and warns at synthesis about the placeholder sender of cdk.json', () => {
    // The CDK prints the warning with console.error as it synthesizes: caught here, where it
    // is expected, so that it does not read as a failure in `npm test`'s output.
    const printed = jest.spyOn(console, 'error').mockImplementation(() => {});
    const plain = synth();
    const warnings = Annotations.fromStack(plain.stack);
    const said = printed.mock.calls.flat().join('\n');
    printed.mockRestore();
    expect(said).toContain('WARNING mailFrom is the placeholder Tenant API <no-reply@example.com>');
    for (const { Properties: p } of Object.values(plain.template.findResources('AWS::Lambda::Function'))) {
      expect(p.Environment.Variables.PUBLIC_BASE_URL).toBeUndefined();
    }
    plain.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { MAIL_FROM: 'Tenant API <no-reply@example.com>' } },
    });
    warnings.hasWarning('*', Match.stringLikeRegexp('mailFrom is the placeholder Tenant API <no-reply@example.com>'));
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('mailFrom is the placeholder'))).toEqual([]);
  });

  it.each([
    [{ mailFrom: 'not an address' }, 'Invalid CDK context: mailFrom: must be an address or Name <address>'],
    [{ mailFrom: 'a@b.test\nBcc: x@y.test' }, 'Invalid CDK context: mailFrom: must be an address or Name <address>'],
    [{ publicBaseUrl: 'https://api.acme.test/' }, 'Invalid CDK context: publicBaseUrl: must be a URL without a trailing slash'],
  ])('refuses a bad context value %p at synthesis, naming it', (context, message) => {
    expect(() => synth(context)).toThrow(message);
  });
});
