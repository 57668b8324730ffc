import { Match, Template } from 'aws-cdk-lib/assertions';
import { routePath } from '#core/http/route-types';
import { countedCommonRules, maxInspectedBodyBytes, publicPathPatterns } from '#lib/constructs/web-acl';
import { routes } from '#routes';
import { deployedApp } from '../support/cdk-app.ts';

// No stack is bundled: the template is the same, and nag.test.ts bundles in its full synthesis.
const synthesized = (context: Parameters<typeof deployedApp>[0] = {}) =>
  Template.fromStack(deployedApp({ ...context, 'aws:cdk:bundling-stacks': [] }).stack);
const template = synthesized();
const acl = Object.values(template.findResources('AWS::WAFv2::WebACL'))[0]?.Properties;
const ruleNamed = (name: string) => acl.Rules.find((rule: { Name: string }) => rule.Name === name);

describe('the WebACL the stack makes by default', () => {
  it('is associated with the stage', () => {
    const [stageId] = Object.keys(template.findResources('AWS::ApiGateway::Stage'));
    template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      WebACLArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^FirewallWebAcl'), 'Arn'] },
    });
    const [association] = Object.values(template.findResources('AWS::WAFv2::WebACLAssociation'));
    expect(JSON.stringify(association!.Properties.ResourceArn)).toContain(stageId);
  });

  it('refuses an address over 100,000 requests in 5 minutes, with 429 in the envelope', () => {
    expect(ruleNamed('RatePerAddress').Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: 100_000,
      EvaluationWindowSec: 300,
    });
    expect(ruleNamed('RatePerAddress').Action.Block.CustomResponse).toMatchObject({
      ResponseCode: 429,
      CustomResponseBodyKey: 'RateLimited',
      ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }],
    });
    expect(JSON.parse(acl.CustomResponseBodies.RateLimited.Content)).toMatchObject({ error_code: 'RATE_LIMIT_EXCEEDED', retry_after: 60 });
  });

  it('refuses an address over 300 requests in 5 minutes to the public routes, their paths matched URL-decoded', () => {
    const rate = ruleNamed('PublicRatePerAddress').Statement.RateBasedStatement;
    expect(rate).toMatchObject({ AggregateKeyType: 'IP', Limit: 300, EvaluationWindowSec: 300 });
    expect(rate.ScopeDownStatement.RegexPatternSetReferenceStatement).toMatchObject({
      FieldToMatch: { UriPath: {} },
      TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }],
    });
    const [path] = ruleNamed('PublicBodySize').Statement.AndStatement.Statements;
    expect(path).toEqual(rate.ScopeDownStatement);
    expect(ruleNamed('PublicRatePerAddress').Action.Block.CustomResponse).toMatchObject({ ResponseCode: 429 });
    const priorities = acl.Rules.map((rule: { Priority: number }) => rule.Priority);
    expect(new Set(priorities).size).toBe(priorities.length);
  });

  it("runs AWS's common, known-bad-inputs and IP-reputation rules, the common set's body rules that refuse posts counted only", () => {
    for (const name of ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet', 'AWSManagedRulesAmazonIpReputationList']) {
      expect(ruleNamed(name).Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: name });
    }
    const overrides = ruleNamed('AWSManagedRulesCommonRuleSet').Statement.ManagedRuleGroupStatement.RuleActionOverrides;
    expect(overrides).toEqual(countedCommonRules.map((name) => ({ Name: name, ActionToUse: { Count: {} } })));
    expect(countedCommonRules).toEqual(
      expect.arrayContaining([
        'SizeRestrictions_BODY',
        'CrossSiteScripting_BODY',
        'GenericRFI_BODY',
        'EC2MetaDataSSRF_BODY',
        'NoUserAgent_HEADER',
      ]),
    );
  });

  it('refuses bodies over 64 KB on the public routes with 413 in the envelope, a body larger than WAF inspects included', () => {
    expect(acl.AssociationConfig).toEqual({ RequestBody: { API_GATEWAY: { DefaultSizeInspectionLimit: 'KB_64' } } });
    const [, size] = ruleNamed('PublicBodySize').Statement.AndStatement.Statements;
    expect(size.SizeConstraintStatement).toMatchObject({
      FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
      ComparisonOperator: 'GT',
      Size: maxInspectedBodyBytes,
    });
    expect(ruleNamed('PublicBodySize').Action.Block.CustomResponse).toMatchObject({ ResponseCode: 413, CustomResponseBodyKey: 'TooLarge' });
    expect(JSON.parse(acl.CustomResponseBodies.TooLarge.Content)).toMatchObject({ error_code: 'PAYLOAD_TOO_LARGE', limit: 64 * 1024 });
  });

  it("names the public routes' paths (and no credential route's), with or without the stage in front, in regular expressions WAF takes", () => {
    const expressions = publicPathPatterns('/api/v1', 'prod', routes);
    template.hasResourceProperties('AWS::WAFv2::RegexPatternSet', { RegularExpressionList: expressions });
    expect(expressions.length).toBeLessThanOrEqual(10);
    for (const expression of expressions) expect(expression.length).toBeLessThanOrEqual(200);
    const patterns = expressions.map((expression) => new RegExp(expression));
    const concrete = (route: (typeof routes)[number]) => routePath(route, '/api/v1').replace(/\{\w+\}/g, 'x1');
    // By path: a method of a public route's path behind a credential (GET /oauth/authorize, the consent page) is matched too.
    const publicPaths = new Set(routes.filter((route) => route.auth === 'none').map((route) => routePath(route, '/api/v1')));
    for (const route of routes) {
      const isPublic = publicPaths.has(routePath(route, '/api/v1'));
      const matched = [concrete(route), `/prod${concrete(route)}`].map((path) => patterns.some((p) => p.test(path)));
      expect([route.path, ...matched]).toEqual([route.path, isPublic, isPublic]);
    }
  });
});

describe('reserved concurrency', () => {
  const reservedOf = (t: Template) =>
    Object.fromEntries(
      Object.entries(t.findResources('AWS::Lambda::Function'))
        .filter(([, { Properties: p }]) => p.ReservedConcurrentExecutions !== undefined)
        .map(([id, { Properties: p }]) => [id.replace(/Function[0-9A-F]{8}$/, ''), p.ReservedConcurrentExecutions]),
    );

  it("the authorizer's 200 by default, which no flood elsewhere takes; the scheduled jobs one each", () => {
    expect(reservedOf(template)).toEqual({ Authorizer: 200, Pruner: 1, WebhookSweeper: 1, GatewayKeyReconciler: 1 });
  });

  const configured = synthesized({
    webAcl: false,
    domainName: 'api.example.com',
    certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc',
    authorizerReservedConcurrency: 50,
    logRetentionDays: 30,
  });

  it("the authorizer's from authorizerReservedConcurrency", () => {
    expect(reservedOf(configured).Authorizer).toBe(50);
  });

  describe('with webAcl=false and a custom domain', () => {
    it('makes no WebACL and associates none', () => {
      configured.resourceCountIs('AWS::WAFv2::WebACL', 0);
      configured.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    });

    it('serves the stage at the domain under TLS 1.2 at least, the execute-api endpoint disabled, and gives its URL as the API URL', () => {
      configured.hasResourceProperties('AWS::ApiGateway::DomainName', {
        DomainName: 'api.example.com',
        RegionalCertificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc',
        SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09',
        EndpointAccessMode: 'STRICT',
        EndpointConfiguration: { Types: ['REGIONAL'] },
      });
      configured.resourceCountIs('AWS::ApiGateway::BasePathMapping', 1);
      configured.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: true });
      configured.hasOutput('ApiUrl', { Value: 'https://api.example.com/api/v1' });
      configured.hasOutput('DocsUrl', { Value: 'https://api.example.com/api/docs' });
      configured.hasOutput('DnsTarget', {});
      configured.hasOutput('DnsTargetZone', {});
      // No output names the disabled execute-api endpoint.
      expect(Object.keys(configured.findOutputs('*')).filter((id) => /Endpoint/.test(id))).toEqual([]);
    });

    it('makes the domain the base of links in mail', () => {
      const senders = Object.values(configured.findResources('AWS::Lambda::Function')).filter(
        ({ Properties: p }) => p.Environment.Variables.MAIL_FROM,
      );
      expect(senders.length).toBeGreaterThan(0);
      for (const { Properties: p } of senders) expect(p.Environment.Variables.PUBLIC_BASE_URL).toBe('https://api.example.com');
    });

    it('keeps the access and execution logs logRetentionDays', () => {
      const retentions = Object.values(configured.findResources('AWS::Logs::LogGroup'))
        .filter(({ Properties: p }) => JSON.stringify(p.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'))
        .map(({ Properties: p }) => p.RetentionInDays);
      expect(retentions).toEqual([30]);
    });
  });
});

describe('webAclArn', () => {
  const arn = 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/shared/0123abcd';
  const withExisting = synthesized({ webAclArn: arn });

  it("associates the account's WebACL with the stage instead of making one", () => {
    withExisting.resourceCountIs('AWS::WAFv2::WebACL', 0);
    withExisting.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { WebACLArn: arn });
  });
});

describe('context', () => {
  it('refuses a domain without its certificate', () => {
    expect(() => deployedApp({ domainName: 'api.example.com' })).toThrow('domainName and certificateArn go together');
  });
});
