import { Match, Template } from 'aws-cdk-lib/assertions';
import { gatewayResponses } from '#core/http/gateway-responses';
import { type Route, routePath } from '#core/http/route-types';
import { accessLogFields, publicThrottle, stageThrottle, trackerThrottle, unmatchedThrottle } from '#lib/constructs/api';
import { routes } from '#routes';
import { deployedApp } from '../support/cdk-app.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

const prefix = '/api/v1';
// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
const { stack } = deployedApp({ prefix: prefix.slice(1), stageName: 'prod', 'aws:cdk:bundling-stacks': [] });
const template = Template.fromStack(stack);
const resources = template.toJSON().Resources as Resources;

const logicalIdOf = (type: string, props: Record<string, unknown> = {}) => Object.keys(template.findResources(type, { Properties: props }));

/** A resource's path, rebuilt by walking ParentId up to the API's root. */
function pathOf(resourceId: { Ref?: string }): string {
  if (!resourceId.Ref) return '';
  const { ParentId, PathPart } = resources[resourceId.Ref]!.Properties;
  return `${pathOf(ParentId)}/${PathPart}`;
}

const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).map(({ Properties: p }) => ({
  httpMethod: p.HttpMethod as string,
  path: pathOf(p.ResourceId) || '/',
  authorizationType: p.AuthorizationType as string,
  authorizerId: p.AuthorizerId as { Ref: string } | undefined,
  integrationType: p.Integration.Type as string,
  integrationTarget: JSON.stringify(p.Integration.Uri),
}));
const methodFor = (httpMethod: string, path: string) => methods.find((m) => m.httpMethod === httpMethod && m.path === path);

const functionIdOf = (pascalName: string) => logicalIdOf('AWS::Lambda::Function').find((id) => id.startsWith(`${pascalName}Function`))!;
const pascal = (name: string) => name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());

describe('routes', () => {
  it.each(routes.map((r) => [r.method, routePath(r, prefix), r] as const))(
    '%s %s is a method integrated with its function',
    (method, path, route) => {
      const found = methodFor(method, path);
      expect(found).toBeDefined();
      expect(found!.integrationTarget).toContain(functionIdOf(pascal(route.function)));
    },
  );

  it('every GET route also answers HEAD through the same function and authorizer', () => {
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const get = methodFor('GET', routePath(route, prefix))!;
      const head = methodFor('HEAD', routePath(route, prefix));
      expect(head).toMatchObject({
        integrationTarget: get.integrationTarget,
        authorizationType: get.authorizationType,
        authorizerId: get.authorizerId,
      });
    }
  });

  it('credential routes go through the REQUEST authorizer, which caches nothing and needs no header', () => {
    const [authorizerId] = logicalIdOf('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: Match.absent(),
      AuthorizerResultTtlInSeconds: 0,
    });
    expect(authorizerId).toBeDefined();
    for (const route of routes.filter((r) => r.auth === 'credential')) {
      const found = methodFor(route.method, routePath(route, prefix))!;
      expect(found.authorizationType).toBe('CUSTOM');
      expect(found.authorizerId).toEqual({ Ref: authorizerId });
    }
  });

  it('every resource, the root included, answers methods no route defines itself (MOCK), no function behind it', () => {
    const paths = ['/', ...logicalIdOf('AWS::ApiGateway::Resource').map((id) => pathOf({ Ref: id }))];
    expect(paths).toEqual(expect.arrayContaining(routes.map((r) => routePath(r, prefix))));
    for (const path of paths) expect(methodFor('ANY', path)).toMatchObject({ authorizationType: 'NONE', integrationType: 'MOCK' });
  });

  it('unknown paths are answered 404 by API Gateway through {proxy+} at the root', () => {
    template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'ANY',
      ResourceId: { Ref: logicalIdOf('AWS::ApiGateway::Resource', { PathPart: '{proxy+}' })[0] },
      Integration: Match.objectLike({ Type: 'MOCK', IntegrationResponses: [Match.objectLike({ StatusCode: '404' })] }),
    });
  });

  it('deploys no fallback function: no Lambda answers what no route takes', () => {
    expect(logicalIdOf('AWS::Lambda::Function').filter((id) => id.startsWith('Fallback'))).toEqual([]);
  });
});

describe('gateway responses', () => {
  it.each(gatewayResponses.map((r) => [r.type, r] as const))(
    '%s is rendered in the error envelope with X-Request-ID',
    (type, { error }) => {
      const keepsStatus = type === 'DEFAULT_4XX' || type === 'DEFAULT_5XX';
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: keepsStatus ? Match.absent() : String(error.status),
        ResponseParameters: { 'gatewayresponse.header.X-Request-ID': 'context.requestId' },
        ResponseTemplates: { 'application/json': Match.stringLikeRegexp(`"error_code":"${error.errorCode}".*\\$context\\.requestId`) },
      });
    },
  );

  it('carry the CORS grant when one origin is allowed, and none by default', () => {
    const withOrigin = Template.fromStack(
      deployedApp({ prefix: prefix.slice(1), corsAllowedOrigins: 'https://app.example.com', 'aws:cdk:bundling-stacks': [] }).stack,
    );
    withOrigin.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Access-Control-Allow-Origin': "'https://app.example.com'" }),
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseParameters: Match.not(Match.objectLike({ 'gatewayresponse.header.Access-Control-Allow-Origin': Match.anyValue() })),
    });
  });
});

describe('request bodies', () => {
  it('reach the functions as bytes (base64), every media type being binary, so that bytes that are not UTF-8 can be refused', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });
});

describe('stage', () => {
  it('logs access, traces, and never logs bodies', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
    // The stage's settings and the tracker's own per method (below): each logs errors, never bodies.
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage'));
    for (const setting of stage!.Properties.MethodSettings)
      expect(setting).toMatchObject({ DataTraceEnabled: false, LoggingLevel: 'ERROR' });
  });

  it('logs each request as JSON with the principal, the errors, the user agent and the latencies, never the API key', () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage'));
    const format = stage!.Properties.AccessLogSetting.Format as string;
    expect(JSON.parse(format)).toEqual(accessLogFields);
    for (const variable of [
      '$context.authorizer.principalId',
      '$context.authorizer.error',
      '$context.integration.error',
      '$context.identity.userAgent',
      '$context.responseLatency',
      '$context.integration.latency',
      '$context.authorizer.latency',
    ])
      expect(format).toContain(variable);
    expect(format).not.toContain('apiKey');
  });

  it('keeps the access log and the execution log (a group of the stack, named as API Gateway names it) 90 days by default', () => {
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: { 'Fn::Join': ['', ['API-Gateway-Execution-Logs_', { Ref: logicalIdOf('AWS::ApiGateway::RestApi')[0] }, '/prod']] },
      RetentionInDays: 90,
    });
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage'));
    const destination = JSON.stringify(stage!.Properties.AccessLogSetting.DestinationArn);
    const accessLogs = logicalIdOf('AWS::Logs::LogGroup').filter((id) => destination.includes(`"${id}"`));
    expect(accessLogs.map((id) => resources[id]!.Properties.RetentionInDays)).toEqual([90]);
  });

  it('takes TLS 1.2 at least, with forward secrecy, on the execute-api endpoint (an enhanced security policy)', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
      DisableExecuteApiEndpoint: false,
    });
  });

  it('the other public routes and the paths that only answer 404 have allowances of their own, under the stage-wide one', () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage'));
    const settings = stage!.Properties.MethodSettings as { HttpMethod: string; ResourcePath: string; ThrottlingRateLimit?: number }[];
    const rateOf = (path: string, method: string) =>
      settings.find((s) => s.HttpMethod === method && s.ResourcePath === `/${path.replaceAll('/', '~1')}`)?.ThrottlingRateLimit;
    const others = (routes as readonly Route[]).filter((route) => route.auth === 'none' && route.cors !== 'any-origin');
    expect(others.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/register', '/login', '/forgot-password', '/reset-password']),
    );
    for (const route of others) expect(rateOf(routePath(route, prefix), route.method)).toBe(publicThrottle.rateLimit);
    for (const path of ['/{proxy+}', '/api', '/api/v1', '/email/verify/{id}']) expect(rateOf(path, '*')).toBe(unmatchedThrottle.rateLimit);
    // A credential route keeps the stage's allowance: no `*` on a resource with routes.
    expect(rateOf(`${prefix}/workspaces`, '*')).toBeUndefined();
    expect(Math.max(publicThrottle.rateLimit, unmatchedThrottle.rateLimit)).toBeLessThan(stageThrottle.rateLimit);
  });

  it('the ApiUrl output ends with the prefix', () => {
    const [output] = Object.values(template.findOutputs('ApiUrl'));
    expect(JSON.stringify(output.Value)).toContain(`"${prefix}"]]`);
  });
});

describe('the public tracker (pixel)', () => {
  it('its routes are public methods with their own stage throttling, under the stage-wide one', () => {
    const tracker = (routes as readonly Route[]).filter((route) => route.cors === 'any-origin');
    expect(tracker.map((route) => `${route.method} ${route.path}`)).toEqual(['GET /pixel/config', 'POST /pixel/track']);
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage'));
    const settings = stage!.Properties.MethodSettings as { HttpMethod: string; ResourcePath: string; ThrottlingRateLimit?: number }[];
    for (const route of tracker) {
      expect(methodFor(route.method, routePath(route, prefix))?.authorizationType).toBe('NONE');
      const own = settings.find(
        (s) => s.HttpMethod === route.method && s.ResourcePath === `/${routePath(route, prefix).replaceAll('/', '~1')}`,
      );
      expect(own).toMatchObject({
        ThrottlingRateLimit: trackerThrottle.rateLimit,
        ThrottlingBurstLimit: trackerThrottle.burstLimit,
        LoggingLevel: 'ERROR',
        MetricsEnabled: true,
      });
      expect(trackerThrottle.rateLimit).toBeLessThan(stageThrottle.rateLimit);
    }
  });

  it('only the pixel function is told the generated key of its hashes, by ARN (test/infra/stack.test.ts: and may read it)', () => {
    const [secretId] = Object.keys(template.findResources('AWS::SecretsManager::Secret')).filter((id) => id.startsWith('PixelHashKey'));
    const holders = Object.entries(template.findResources('AWS::Lambda::Function'))
      .filter(([, { Properties: p }]) => JSON.stringify(p.Environment.Variables.PIXEL_HASH_KEY_ARN ?? '') === `{"Ref":"${secretId}"}`)
      .map(([id]) => id);
    expect(holders).toEqual([functionIdOf('Pixel')]);
  });
});
