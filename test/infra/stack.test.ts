import { Match, Template } from 'aws-cdk-lib/assertions';
import { secretsOf } from '#core/adapters/function-definition';
import { secretVariables } from '#core/platform/secret-settings';
import { tableDesign } from '#core/store/table';
import { functionNames, mainStackFunctionNames, nodejsBundling } from '#lib/bundling';
import { functionDefinitions } from '../../functions/definitions.ts';
import { deployedApp } from '../support/cdk-app.ts';

// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
const { stack } = deployedApp({ 'aws:cdk:bundling-stacks': [] });
const template = Template.fromStack(stack);
type Statement = { Action: string | string[]; Resource: unknown };
/** The statements of the policies attached to the role (every role, unless given) that grant any secretsmanager action. */
const secretStatements = (roleId?: string): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy'))
    .filter(({ Properties: p }) => !roleId || p.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap(({ Properties: p }) => p.PolicyDocument.Statement as Statement[])
    .filter((st) => [st.Action].flat().some((action) => action.startsWith('secretsmanager:')));
/** The logical ids of the secrets the role may read. */
const secretsReadBy = (roleId: string): string[] =>
  secretStatements(roleId).flatMap((st) => [st.Resource].flat().map((resource) => (resource as { Ref: string }).Ref));
const pascal = (name: string) => name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());

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

  it('no function holds a secret in its configuration: neither a dynamic reference nor a reference to a secret', () => {
    const secretIds = Object.keys(template.findResources('AWS::SecretsManager::Secret'));
    for (const { Properties: p } of Object.values(template.findResources('AWS::Lambda::Function'))) {
      for (const [variable, value] of Object.entries(p.Environment.Variables as Record<string, unknown>)) {
        const text = JSON.stringify(value);
        expect({ variable, resolves: text.includes('{{resolve:secretsmanager:') }).toEqual({ variable, resolves: false });
        // A Ref to a secret is its ARN: allowed only in a variable that carries ARNs.
        if (secretIds.some((id) => text.includes(`{"Ref":"${id}"}`))) expect(variable).toMatch(/_ARNS?$/);
      }
    }
  });

  describe.each([
    [
      'cursorSigningKey',
      'CursorSigningKey',
      ['workspaces', 'api-keys', 'users', 'namespaces', 'webhooks', 'webhook-deliveries', 'content', 'seo'],
    ],
    ['pixelHashKey', 'PixelHashKey', ['pixel']],
    ['webhookSecretKeys', 'WebhookSecretKeys', ['webhooks', 'webhook-deliveries', 'webhook-worker']],
  ] as const)('the key %s', (secret, idPrefix, users) => {
    const secretIds = Object.keys(template.findResources('AWS::SecretsManager::Secret')).filter((id) => id.startsWith(idPrefix));
    const arnVariable = secretVariables[secret].arns;
    const functions = Object.entries(template.findResources('AWS::Lambda::Function'));
    const nameOf = (id: string) => mainStackFunctionNames.find((name) => id.startsWith(`${pascal(name)}Function`))!;
    it(`is declared by exactly the functions that use it: ${users.join(', ')}`, () => {
      const declaring = mainStackFunctionNames.filter((name) => secretsOf(functionDefinitions[name]).includes(secret));
      expect(declaring.sort()).toEqual([...users].sort());
    });

    it('only those functions are told its ARN, and only they may read it, that secret alone', () => {
      expect(secretIds.length).toBeGreaterThan(0);
      const told = functions
        .filter(([, { Properties: p }]) => p.Environment.Variables[arnVariable] !== undefined)
        .map(([id]) => nameOf(id));
      expect(told.sort()).toEqual([...users].sort());
      for (const [id, { Properties: p }] of functions) {
        const read = secretsReadBy(p.Role['Fn::GetAtt'][0]);
        const name = nameOf(id);
        expect({ name, reads: secretIds.filter((secretId) => read.includes(secretId)) }).toEqual({
          name,
          reads: (users as readonly string[]).includes(name) ? secretIds : [],
        });
        if ((users as readonly string[]).includes(name))
          expect(JSON.stringify(p.Environment.Variables[arnVariable])).toContain(`{"Ref":"${secretIds[0]}"}`);
      }
    });
  });

  it('every grant on a secret is to read it, named by its ARN: no wildcard', () => {
    const secretIds = Object.keys(template.findResources('AWS::SecretsManager::Secret'));
    const grants = secretStatements();
    expect(grants.length).toBeGreaterThan(0);
    for (const statement of grants) {
      expect([statement.Action].flat().sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
      for (const resource of [statement.Resource].flat()) expect(secretIds.map((id) => ({ Ref: id }))).toContainEqual(resource);
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

  it('refuses deletion until an operator turns the protection off (docs/operations.md, Data protection)', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
  });

  it('has no on-demand throughput cap unless configured; configured, the table and each index have the same', () => {
    const [table] = Object.values(template.findResources('AWS::DynamoDB::Table'));
    expect(JSON.stringify(table)).not.toContain('OnDemandThroughput');
    const capped = Template.fromStack(
      deployedApp({ 'aws:cdk:bundling-stacks': [], tableMaxReadRequestUnits: '4000', tableMaxWriteRequestUnits: 1000 }).stack,
    );
    const [{ Properties: p }] = Object.values(capped.findResources('AWS::DynamoDB::Table'));
    const cap = { MaxReadRequestUnits: 4000, MaxWriteRequestUnits: 1000 };
    expect(p.OnDemandThroughput).toEqual(cap);
    expect(p.GlobalSecondaryIndexes.map((index: { OnDemandThroughput: unknown }) => index.OnDemandThroughput)).toEqual(
      tableDesign.globalIndexes.map(() => cap),
    );
  });

  it.each([[{ tableMaxReadRequestUnits: 0 }], [{ tableMaxWriteRequestUnits: 'many' }]])('refuses the cap %p at synthesis', (context) => {
    expect(() => deployedApp({ 'aws:cdk:bundling-stacks': [], ...context })).toThrow(/Invalid CDK context: tableMax/);
  });

  it('its name is a stack output', () => {
    template.hasOutput('TableName', { Value: { Ref: Match.stringLikeRegexp('^DataTable') } });
  });
});
