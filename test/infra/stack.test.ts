import { Match, Template } from 'aws-cdk-lib/assertions';
import { tableDesign } from '#core/store/table';
import { functionNames, nodejsBundling } from '#lib/bundling';
import { deployedApp } from '../support/cdk-app.ts';

// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [] });
const template = Template.fromStack(stack);

describe('functions', () => {
  it('there is one Lambda per bundle (the docs function in its nested stack, test/infra/docs.test.ts)', () => {
    template.resourceCountIs('AWS::Lambda::Function', functionNames.length - 1);
  });

  it('every function runs Node.js 22 on arm64 with active tracing and its own log group', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    for (const { Properties: p } of functions) {
      expect(p).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
        Environment: { Variables: expect.objectContaining({ API_PREFIX: '/api/v1' }) },
      });
    }
  });

  it('every function signs list cursors with the one generated key, resolved at deployment', () => {
    const [secretId] = Object.keys(template.findResources('AWS::SecretsManager::Secret')).filter((id) => id.startsWith('CursorSigningKey'));
    expect(secretId).toBeDefined();
    for (const { Properties: p } of Object.values(template.findResources('AWS::Lambda::Function'))) {
      expect(JSON.stringify(p.Environment.Variables.CURSOR_SIGNING_KEY)).toContain(`{"Ref":"${secretId}"}`);
    }
  });

  it('no function role carries an AWS managed policy', () => {
    for (const { Properties: p } of Object.values(template.findResources('AWS::IAM::Role'))) {
      if (p.AssumeRolePolicyDocument.Statement[0].Principal.Service === 'lambda.amazonaws.com') {
        expect(p.ManagedPolicyArns).toBeUndefined();
      }
    }
  });
});

describe('the MCP functions', () => {
  const functionIds = Object.keys(template.findResources('AWS::Lambda::Function'));
  const idOf = (name: string) => functionIds.find((id) => id.startsWith(`${name}Function`))!;
  const invokeGrants = () =>
    Object.values(template.findResources('AWS::IAM::Policy')).flatMap(({ Properties: p }) =>
      p.PolicyDocument.Statement.filter((s: { Action: unknown }) => s.Action === 'lambda:InvokeFunction').map(
        (s: { Resource: unknown }) => ({ role: JSON.stringify(p.Roles), resources: JSON.stringify(s.Resource) }),
      ),
    );

  it('invoke exactly the functions they run operations in, each named in ROUTE_FUNCTIONS, and no function else invokes', () => {
    const expected: Record<string, string[]> = {
      Mcp: ['Workspaces', 'ApiKeys', 'Users', 'Entitlements', 'Namespaces', 'Webhooks', 'WebhookDeliveries', 'Content', 'Seo', 'Pixel'],
      McpProtocol: ['Mcp'],
    };
    const grants = invokeGrants();
    expect(grants).toHaveLength(Object.keys(expected).length);
    for (const [invoker, targets] of Object.entries(expected)) {
      const grant = grants.find((g) => g.role.includes(`${invoker}Role`))!;
      const invoked = functionIds.filter((id) => grant.resources.includes(`"${id}"`)).sort();
      expect(invoked).toEqual(targets.map(idOf).sort());
      expect(grant.resources).not.toContain(':*');
      const variables = template.findResources('AWS::Lambda::Function')[idOf(invoker)]!.Properties.Environment.Variables;
      for (const target of targets) expect(JSON.stringify(variables.ROUTE_FUNCTIONS)).toContain(`{"Ref":"${idOf(target)}"}`);
    }
  });

  it('the mcp function carries openapi.yaml beside its bundle (docs://openapi.yaml)', () => {
    expect(nodejsBundling('mcp').commandHooks?.afterBundling('/in', '/out')).toEqual(['cp "/in/openapi.yaml" "/out/openapi.yaml"']);
    expect(nodejsBundling('content').commandHooks).toBeUndefined();
  });
});

describe('table', () => {
  it('is keyed, indexed and expired as tableDesign says', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableDesign.globalIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('can be restored to any point in time, is encrypted, and outlives the stack', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('its name is a stack output', () => {
    template.hasOutput('TableName', { Value: { Ref: Match.stringLikeRegexp('^DataTable') } });
  });
});
