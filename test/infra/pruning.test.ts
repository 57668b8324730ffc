import { Match, Template } from 'aws-cdk-lib/assertions';
import { deployedApp } from '../support/cdk-app.ts';

// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [] });
const template = Template.fromStack(stack);

const logicalIdOf = (type: string, prefix: string) => Object.keys(template.findResources(type)).find((id) => id.startsWith(prefix))!;
const prunerId = logicalIdOf('AWS::Lambda::Function', 'PrunerFunction');
const ruleId = logicalIdOf('AWS::Events::Rule', 'PruningRule');

describe('pruning schedule', () => {
  it('an EventBridge rule runs the pruner function every hour', () => {
    expect(prunerId).toBeDefined();
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      State: 'ENABLED',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [prunerId, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
        }),
      ],
    });
  });

  it('only that rule may invoke the pruner', () => {
    const permissions = Object.values(
      template.findResources('AWS::Lambda::Permission', {
        Properties: { FunctionName: { 'Fn::GetAtt': [prunerId, 'Arn'] } },
      }),
    );
    expect(permissions.map((p) => p.Properties)).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      }),
    ]);
  });

  it('the pruner has five minutes, and may query gsi2 (what is finished) and delete in the table', () => {
    const { Properties: fn } = template.findResources('AWS::Lambda::Function')[prunerId]!;
    expect(fn.Timeout).toBe(300);
    expect(fn.Environment.Variables.TABLE_NAME).toEqual({ Ref: expect.stringMatching(/^DataTable/) });
    const roleId = fn.Role['Fn::GetAtt'][0];
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    const tableStatement = statements.find((s) => [s.Action].flat().includes('dynamodb:DeleteItem'));
    expect(tableStatement.Action).toEqual(expect.arrayContaining(['dynamodb:DeleteItem', 'dynamodb:UpdateItem']));
    const indexStatement = statements.find((s) => JSON.stringify(s.Resource).includes('/index/'));
    expect(indexStatement.Action).toBe('dynamodb:Query');
    expect(JSON.stringify(indexStatement.Resource)).toContain('/index/gsi2');
    expect(JSON.stringify(statements)).not.toContain('/index/*');
  });
});
