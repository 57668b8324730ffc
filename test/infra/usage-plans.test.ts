import { Template } from 'aws-cdk-lib/assertions';
import { stackTagKey } from '#core/adapters/gateway-keys/stack-tag';
import { routePath } from '#core/http/route-types';
import { gatewaySettings, parseSettings } from '#core/platform/config';
import { allowanceOf } from '#core/platform/rate-limits';
import { tierNames, tiers } from '#core/platform/tiers';
import { mainStackFunctionNames as functionNames } from '#lib/bundling';
import { edgeQuotaFactor } from '#lib/constructs/tier-usage-plans';
import { routes } from '#routes';
import { deployedApp } from '../support/cdk-app.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

const prefix = '/api/v1';
// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
const { stack } = deployedApp({ prefix: prefix.slice(1), 'aws:cdk:bundling-stacks': [] });
const template = Template.fromStack(stack);
const resources = template.toJSON().Resources as Resources;
const stackName = stack.stackName;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const planNamed = (name: string) => ofType('AWS::ApiGateway::UsagePlan').find(([, r]) => r.Properties.UsagePlanName === name);
const functionId = (pascal: string) => ofType('AWS::Lambda::Function').find(([id]) => id.startsWith(`${pascal}Function`))![0];
const environmentOf = (pascal: string) => resources[functionId(pascal)]!.Properties.Environment.Variables as Record<string, unknown>;
/** The gateway's settings in a function's environment, as functions/core/platform/config.ts parses them. */
const gatewayConfigOf = (pascal: string) =>
  parseSettings(
    gatewaySettings,
    Object.fromEntries(Object.entries(environmentOf(pascal)).filter(([name]) => name.startsWith('GATEWAY_'))) as NodeJS.ProcessEnv,
  );

function pathOf(resourceId: { Ref?: string }): string {
  if (!resourceId.Ref) return '';
  const { ParentId, PathPart } = resources[resourceId.Ref]!.Properties;
  return `${pathOf(ParentId)}/${PathPart}`;
}
const methodFor = (httpMethod: string, path: string) =>
  ofType('AWS::ApiGateway::Method').find(
    ([, r]) => r.Properties.HttpMethod === httpMethod && (pathOf(r.Properties.ResourceId) || '/') === path,
  )![1];

describe('the RestApi', () => {
  it('takes API keys from the authorizer, never from a header', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
  });

  it('requires a key on every credential route, HEAD included, and on no public route or fallback', () => {
    for (const route of routes) {
      const httpMethods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
      for (const httpMethod of httpMethods) {
        const expected = route.auth === 'credential' ? true : undefined;
        expect([route.method, route.path, methodFor(httpMethod, routePath(route, prefix)).Properties.ApiKeyRequired]).toEqual([
          route.method,
          route.path,
          expected,
        ]);
      }
    }
    for (const [, any] of ofType('AWS::ApiGateway::Method').filter(([, r]) => r.Properties.HttpMethod === 'ANY')) {
      expect(any.Properties.ApiKeyRequired).toBeUndefined();
    }
  });
});

describe('usage plans', () => {
  it('there is a plan per tier for the workspaces’ own keys, one per tier for its shared key, and one for refused credentials', () => {
    const names = ofType('AWS::ApiGateway::UsagePlan')
      .map(([, r]) => r.Properties.UsagePlanName)
      .sort();
    expect(names).toEqual(
      [...tierNames.map((t) => `${stackName}-${t}`), ...tierNames.map((t) => `${stackName}-${t}-shared`), `${stackName}-anonymous`].sort(),
    );
  });

  it.each(tierNames)('the %s plan holds a minute of the tier’s test allowance, refilled at that rate, on the API’s stage', (tier) => {
    const { limit } = allowanceOf(tier, 'test');
    expect(planNamed(`${stackName}-${tier}`)![1].Properties).toMatchObject({
      Throttle: { RateLimit: Math.min(limit / 60, 10_000), BurstLimit: Math.min(limit, 5_000) },
      ApiStages: [{ ApiId: { Ref: expect.any(String) }, Stage: { Ref: expect.any(String) } }],
    });
  });

  it('lets a free workspace spend its minute at once at the edge, and no faster than two requests a second after', () => {
    expect(planNamed(`${stackName}-free`)![1].Properties.Throttle).toEqual({ RateLimit: 2, BurstLimit: 120 });
  });

  it.each(tierNames)('the %s plan has ten times the tier’s monthly api_calls as its backstop quota, where the tier has a limit', (tier) => {
    const limit = tiers[tier].entitlements.api_calls;
    expect(planNamed(`${stackName}-${tier}`)![1].Properties.Quota).toEqual(
      limit === null ? undefined : { Limit: limit * edgeQuotaFactor, Period: 'MONTH' },
    );
  });

  it('enterprise has no quota', () => {
    expect(planNamed(`${stackName}-enterprise`)![1].Properties.Quota).toBeUndefined();
  });

  it.each(tierNames)('the %s shared plan holds the shared key, with no quota (it would be the sum of every sharer’s)', (tier) => {
    const [planId, plan] = planNamed(`${stackName}-${tier}-shared`)!;
    expect(plan.Properties.Quota).toBeUndefined();
    expect(plan.Properties.Throttle).toEqual({ RateLimit: 5000, BurstLimit: 5000 });
    const [keyId] = ofType('AWS::ApiGateway::ApiKey').find(([, k]) => k.Properties.Value === `${stackName}-shared-${tier}-usage-key`)!;
    template.hasResourceProperties('AWS::ApiGateway::UsagePlanKey', {
      KeyId: { Ref: keyId },
      KeyType: 'API_KEY',
      UsagePlanId: { Ref: planId },
    });
  });

  it('refused credentials have a plan and key of their own', () => {
    const [planId, plan] = planNamed(`${stackName}-anonymous`)!;
    expect(plan.Properties.Throttle).toEqual({ RateLimit: 100, BurstLimit: 200 });
    const [keyId] = ofType('AWS::ApiGateway::ApiKey').find(([, k]) => k.Properties.Value === `${stackName}-anonymous-usage-key`)!;
    template.hasResourceProperties('AWS::ApiGateway::UsagePlanKey', { KeyId: { Ref: keyId }, UsagePlanId: { Ref: planId } });
  });

  it('the stack makes no key but the shared and anonymous ones: workspaces’ keys are made at run time', () => {
    template.resourceCountIs('AWS::ApiGateway::ApiKey', tierNames.length + 1);
  });
});

describe('the functions that create, move and remove keys', () => {
  const keyManagers = ['Workspaces', 'Sessions', 'Admin'];
  const reconciler = 'GatewayKeyReconciler';
  const pascal = (name: string) => name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());
  const others = functionNames.map(pascal).filter((name) => !keyManagers.includes(name) && name !== reconciler);
  /** The API Gateway statements of a function's role, and the resources each action is granted on. */
  const gatewayGrantsOf = (fn: string) => {
    const roleId = (resources[functionId(fn)]!.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const policies = ofType('AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]));
    const statements = policies.flatMap(
      ([, p]) =>
        p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown; Effect?: string; Condition?: unknown }[],
    );
    const gateway = statements.filter((s) => String(s.Action).startsWith('apigateway:'));
    const granted = (action: string) =>
      gateway
        .filter((s) => s.Action === action)
        .flatMap((s) => [s.Resource].flat().map((r) => JSON.stringify(r)))
        .sort();
    return { gateway, granted };
  };
  const planIds = () => tierNames.map((t) => planNamed(`${stackName}-${t}`)![0]);
  const arn = (...path: unknown[]) =>
    JSON.stringify({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':apigateway:', { Ref: 'AWS::Region' }, ...path]] });
  /** The tags of the region's API keys: tagging a key as it is created is a PUT there. */
  const keyTags = arn('::/tags/arn%3A', { Ref: 'AWS::Partition' }, '%3Aapigateway%3A', { Ref: 'AWS::Region' }, '%3A%3A%2Fapikeys%2F*');

  it.each([...keyManagers, reconciler])('%s is told the plans by name, the key name prefix and the budget, which config parses', (fn) => {
    const environment = environmentOf(fn);
    expect(JSON.parse(environment.GATEWAY_USAGE_PLANS as string)).toEqual(
      Object.fromEntries(tierNames.map((t) => [t, `${stackName}-${t}`])),
    );
    expect(environment).toMatchObject({ GATEWAY_KEY_NAME_PREFIX: stackName, GATEWAY_KEY_BUDGET: '9000' });
    expect(gatewayConfigOf(fn).GATEWAY_USAGE_PLANS).toEqual(Object.fromEntries(tierNames.map((t) => [t, `${stackName}-${t}`])));
  });

  /** What every key manager may do besides creating and listing: delete keys and plan entries, tag keys, no other action. */
  const expectRemovesAndTagsKeysOnly = ({ gateway, granted }: ReturnType<typeof gatewayGrantsOf>) => {
    expect(granted('apigateway:DELETE')).toEqual(
      [arn('::/apikeys/*'), ...planIds().map((id) => arn('::/usageplans/', { Ref: id }, '/keys/*'))].sort(),
    );
    expect(granted('apigateway:PUT')).toEqual([keyTags]);
    expect([...new Set(gateway.map((s) => s.Action))].sort()).toEqual([
      'apigateway:DELETE',
      'apigateway:GET',
      'apigateway:POST',
      'apigateway:PUT',
    ]);
  };

  it.each(keyManagers)('%s may create and delete keys and move them between these plans only', (fn) => {
    const { gateway, granted } = gatewayGrantsOf(fn);
    expect(gateway.every((s) => s.Effect === 'Allow')).toBe(true);
    expect(granted('apigateway:GET')).toEqual([arn('::/usageplans')]);
    expect(granted('apigateway:POST')).toEqual(
      [arn('::/apikeys'), ...planIds().map((id) => arn('::/usageplans/', { Ref: id }, '/keys'))].sort(),
    );
    expectRemovesAndTagsKeysOnly({ gateway, granted });
  });

  it(`${reconciler} may do the same, and list the region's keys and these plans' keys, nothing more`, () => {
    const { gateway, granted } = gatewayGrantsOf(reconciler);
    expect(gateway.every((s) => s.Effect === 'Allow')).toBe(true);
    const planKeys = planIds().map((id) => arn('::/usageplans/', { Ref: id }, '/keys'));
    expect(granted('apigateway:GET')).toEqual([arn('::/usageplans'), arn('::/apikeys'), ...planKeys].sort());
    expect(granted('apigateway:POST')).toEqual([arn('::/apikeys'), ...planKeys].sort());
    expectRemovesAndTagsKeysOnly({ gateway, granted });
  });

  it.each([...keyManagers, reconciler])("%s may create a key only with this stack's tag, and delete only a key that has it", (fn) => {
    const { gateway } = gatewayGrantsOf(fn);
    const on = (action: string, resource: string) => gateway.filter((s) => s.Action === action && JSON.stringify(s.Resource) === resource);
    expect(on('apigateway:POST', arn('::/apikeys')).map((s) => s.Condition)).toEqual([
      {
        StringEquals: { [`aws:RequestTag/${stackTagKey}`]: stackName },
        'ForAllValues:StringEquals': { 'aws:TagKeys': [stackTagKey] },
      },
    ]);
    // Tagging at creation is a PUT on the key's tags: the same conditions.
    expect(on('apigateway:PUT', keyTags).map((s) => s.Condition)).toEqual(on('apigateway:POST', arn('::/apikeys')).map((s) => s.Condition));
    expect(on('apigateway:DELETE', arn('::/apikeys/*')).map((s) => s.Condition)).toEqual([
      { StringEquals: { [`aws:ResourceTag/${stackTagKey}`]: stackName } },
    ]);
  });

  it("the stack's own keys carry its tag, as the keys the functions make do", () => {
    const keys = ofType('AWS::ApiGateway::ApiKey');
    expect(keys.length).toBeGreaterThan(0);
    for (const [, key] of keys) expect(key.Properties.Tags).toContainEqual({ Key: stackTagKey, Value: stackName });
  });

  it.each(others)('%s may touch no API Gateway key and is not told the plans', (fn) => {
    const roleId = (resources[functionId(fn)]!.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const policies = ofType('AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId));
    expect(JSON.stringify(policies)).not.toContain('apigateway:');
    expect(environmentOf(fn).GATEWAY_USAGE_PLANS).toBeUndefined();
  });

  it('the authorizer is told the shared and anonymous keys', () => {
    const environment = environmentOf('Authorizer');
    expect(JSON.parse(environment.GATEWAY_SHARED_KEYS as string)).toEqual(
      Object.fromEntries(tierNames.map((t) => [t, `${stackName}-shared-${t}-usage-key`])),
    );
    expect(environment.GATEWAY_ANONYMOUS_KEY).toBe(`${stackName}-anonymous-usage-key`);
    expect(gatewayConfigOf('Authorizer')).toMatchObject({ GATEWAY_ANONYMOUS_KEY: `${stackName}-anonymous-usage-key` });
  });
});
