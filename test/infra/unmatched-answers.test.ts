import { Template } from 'aws-cdk-lib/assertions';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { unmatchedHandler } from '#core/http/http-handler';
import { unmatchedBodyTypes } from '#lib/constructs/unmatched-answers';
import { routes } from '#routes';
import { renderMapping } from '../support/api-gateway-vtl.ts';
import { deployedApp } from '../support/cdk-app.ts';

// The functions' configuration and the stack's context say the same: two origins, a deprecated version.
const origins = ['https://app.example.com', 'https://admin.example.com'];
const deprecation = { deprecatedAt: '2027-01-31', sunsetAt: '2027-07-31', deprecationLink: 'https://example.com/deprecations/v1' };
Object.assign(process.env, {
  CORS_ALLOWED_ORIGINS: origins.join(','),
  API_DEPRECATED_AT: deprecation.deprecatedAt,
  API_SUNSET_AT: deprecation.sunsetAt,
  API_DEPRECATION_LINK: deprecation.deprecationLink,
});

const { stack } = deployedApp({ corsAllowedOrigins: origins.join(','), ...deprecation, 'aws:cdk:bundling-stacks': [] });
const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string; Properties: any }>;

/** A resource's path, rebuilt by walking ParentId up to the API's root. */
const pathOf = (resourceId: { Ref?: string }): string =>
  resourceId.Ref ? `${pathOf(resources[resourceId.Ref]!.Properties.ParentId)}/${resources[resourceId.Ref]!.Properties.PathPart}` : '';

const mocks = Object.values(resources)
  .filter((r) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.Integration.Type === 'MOCK')
  .map(({ Properties: p }) => ({
    template: pathOf(p.ResourceId) || '/',
    status: Number(p.Integration.IntegrationResponses[0].StatusCode),
    mapping: p.Integration.IntegrationResponses[0].ResponseTemplates['application/json'] as string,
    staticHeaders: p.Integration.IntegrationResponses[0].ResponseParameters as Record<string, string>,
    requestTemplates: p.Integration.RequestTemplates as Record<string, string>,
    passthrough: p.Integration.PassthroughBehavior as string,
  }));

const unmatched = unmatchedHandler(routes);
const requestId = 'c0ffee00-0000-4000-8000-000000000001';
const longOrigin = `https://${'x'.repeat(240)}.example.com`;

/** The same request, as the local runner's fallback and as the MOCK's template see it. */
function requestAt(template: string, httpMethod: string, headers: Record<string, string>) {
  const pathParameters = Object.fromEntries(
    [...template.matchAll(/\{(\w+)(\+?)\}/g)].map(([, name, greedy]) => [name!, greedy ? 'no/such/thing' : `${name}_1`]),
  );
  const path = template.replace(/\{(\w+)\+?\}/g, (_, name: string) => pathParameters[name]!);
  const event = {
    httpMethod,
    path,
    resource: template,
    headers,
    multiValueHeaders: {},
    pathParameters,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId, path, identity: { sourceIp: '203.0.113.9' } },
  } as unknown as APIGatewayProxyEvent;
  return { event, mapped: { httpMethod, headers, pathParameters, requestId, requestTime: '27/Nov/2026:15:44:37 +0000' } };
}

// The headers a client acts on; the MOCK adds Cache-Control to a preflight too, which is harmless.
const compared = /^(allow|vary|deprecation|sunset|link|x-request-id|access-control-.*)$/i;
const pick = (headers: Record<string, unknown> = {}) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => compared.test(name))
      .map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
const bodyOf = (text: string) => {
  if (!text) return '';
  const body = JSON.parse(text);
  delete body.meta.timestamp; // ISO 8601 from the function, $context.requestTime from API Gateway
  return body;
};

function cases() {
  return mocks.flatMap((mock) => {
    const methods: string[] = mock.status === 405 ? JSON.parse(mock.mapping.match(/"allowed_methods":(\[[^\]]*\])/)![1]!) : [];
    const wrong = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((m) => !methods.includes(m)) ?? 'PUT';
    const preflight = (origin: string) => ({ Origin: origin, 'Access-Control-Request-Method': 'POST' });
    const asked: [string, string, Record<string, string>][] = [
      [wrong, 'from an allowed origin', { Origin: origins[1]! }],
      [wrong, 'from no origin', {}],
      ['OPTIONS', 'plain', {}],
      ['OPTIONS', 'preflight from an allowed origin', preflight(origins[0]!)],
      ['OPTIONS', 'preflight from an origin not allowed', { origin: longOrigin, 'access-control-request-method': 'GET' }],
    ];
    return asked.map(([method, how, headers]) => [`${method} ${mock.template} ${how}`, mock, method, headers] as const);
  });
}

describe("API Gateway's own answers (MOCK) match the local runner's fallback", () => {
  it('cover every resource on the way to a route, and {proxy+}', () => {
    expect(mocks.map((m) => m.template)).toEqual(expect.arrayContaining(['/', '/{proxy+}', '/api/v1', '/api/v1/workspaces']));
  });

  it('give the MOCK its status for any body a client may send, and refuse other media types (415) instead of passing them to it', () => {
    for (const mock of mocks) {
      expect(mock.passthrough).toBe('NEVER');
      expect(Object.keys(mock.requestTemplates).sort()).toEqual([...unmatchedBodyTypes].sort());
      for (const template of Object.values(mock.requestTemplates)) expect(JSON.parse(template)).toEqual({ statusCode: 200 });
    }
    expect(unmatchedBodyTypes).toEqual(expect.arrayContaining(['application/json', 'text/plain', 'application/x-www-form-urlencoded']));
  });

  it.each(cases())('%s', async (_, mock, method, headers) => {
    const { event, mapped } = requestAt(mock.template, method, headers);
    const local = await unmatched(event);
    const rendered = renderMapping(mock.mapping, mapped);
    expect(mock.staticHeaders).toEqual({
      'method.response.header.X-Request-ID': 'context.requestId',
      'method.response.header.Cache-Control': "'no-store'",
    });
    const gateway = {
      status: rendered.status ?? mock.status,
      headers: pick({ 'X-Request-ID': requestId, ...rendered.headers }),
      body: bodyOf(rendered.body),
    };
    expect(gateway).toEqual({ status: local.statusCode, headers: pick(local.headers), body: bodyOf(local.body) });
  });
});
