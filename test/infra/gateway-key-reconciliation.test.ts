import { Match, Template } from 'aws-cdk-lib/assertions';
import { deployedApp } from '../support/cdk-app.ts';

// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [] });
const template = Template.fromStack(stack);

const logicalIdOf = (type: string, prefix: string) => Object.keys(template.findResources(type)).find((id) => id.startsWith(prefix))!;
const reconcilerId = logicalIdOf('AWS::Lambda::Function', 'GatewayKeyReconcilerFunction');
const ruleId = logicalIdOf('AWS::Events::Rule', 'GatewayKeyReconciliationRule');
const { Properties: reconciler } = template.findResources('AWS::Lambda::Function')[reconcilerId]!;
const statementsOf = (roleId: string) =>
  Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);

describe('the gateway key reconciliation schedule', () => {
  it('an EventBridge rule runs the reconciler every hour; a run missed is superseded by the next', () => {
    expect(reconcilerId).toBeDefined();
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      State: 'ENABLED',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [reconcilerId, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
        }),
      ],
    });
  });

  it('only that rule may invoke the reconciler', () => {
    const permissions = Object.values(
      template.findResources('AWS::Lambda::Permission', { Properties: { FunctionName: { 'Fn::GetAtt': [reconcilerId, 'Arn'] } } }),
    );
    expect(permissions.map((p) => p.Properties)).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      }),
    ]);
  });

  it('the reconciler has five minutes, reads the sharers by gsi2 and updates them, and is told the plans, the key names and the budget', () => {
    expect(reconciler.Timeout).toBe(300);
    expect(reconciler.Environment.Variables).toMatchObject({
      TABLE_NAME: { Ref: expect.stringMatching(/^DataTable/) },
      GATEWAY_KEY_NAME_PREFIX: stack.stackName,
      GATEWAY_KEY_BUDGET: '9000',
      GATEWAY_USAGE_PLANS: expect.any(String),
    });
    const statements = statementsOf(reconciler.Role['Fn::GetAtt'][0]);
    // What its definition declares (least-privilege.test.ts holds it to the code): the sharers by gsi2, and their rows.
    const onTable = statements.find((s) => [s.Action].flat().includes('dynamodb:UpdateItem'))!;
    expect([onTable.Action].flat().sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem']);
    const onIndex = statements.find((s) => JSON.stringify(s.Resource).includes('/index/'))!;
    expect(onIndex.Action).toBe('dynamodb:Query');
    expect(JSON.stringify(onIndex.Resource)).toContain('/index/gsi2');
    expect(JSON.stringify(statements)).not.toContain('/index/*');
  });

  it('the pruner may still touch no API Gateway key: the job has a function of its own', () => {
    const pruner = template.findResources('AWS::Lambda::Function')[logicalIdOf('AWS::Lambda::Function', 'PrunerFunction')]!.Properties;
    expect(JSON.stringify(statementsOf(pruner.Role['Fn::GetAtt'][0]))).not.toContain('apigateway:');
  });
});
