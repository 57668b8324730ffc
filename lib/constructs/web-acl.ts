import { Validations } from 'aws-cdk-lib';
import type { RestApi, Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnRegexPatternSet, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { type Route, routePath } from '#core/http/route-types';
import * as codes from '#core/platform/error-codes';
import { errorEnvelope } from '#core/platform/error-envelope';
import { ApiError, PayloadTooLarge } from '#core/platform/errors';

/** WAF inspects at most this much of a body (API Gateway's largest inspection limit); a larger body is "oversize". */
export const maxInspectedBodyBytes = 64 * 1024;

/** How long WAF counts an address's requests for the rate rule. */
const rateWindowSeconds = 300;

/**
 * Common rule set rules that only count: each would refuse what the service exists to take
 * (posts of HTML or Markdown up to 100 KB, with links and addresses as words) or clients that
 * send no User-Agent (docs/operations.md, The edge).
 */
export const countedCommonRules = [
  'SizeRestrictions_BODY',
  'CrossSiteScripting_BODY',
  'GenericLFI_BODY',
  'GenericRFI_BODY',
  'EC2MetaDataSSRF_BODY',
  'NoUserAgent_HEADER',
] as const;

export interface WebAclProps {
  stage: Stage;
  /** The stage's name, which leads the path WAF sees on the execute-api endpoint. */
  stageName: string;
  /** The routes' prefix, with its leading slash: `/api/v1`. */
  prefix: string;
  /** Requests per address in 5 minutes beyond which WAF refuses the address's requests until it slows down. */
  rateLimit: number;
  /** The same, counting only the public routes' requests (login, registration, password reset, OAuth, mailed links). */
  publicRateLimit: number;
  /** The route table: bodies over 64 KB are refused on its public routes. */
  routes: readonly Route[];
}

/** WAF answers without a request id of API Gateway's (it runs first): the envelope's request_id and timestamp are empty. */
const wafEnvelope = (error: ApiError) => JSON.stringify(errorEnvelope(error, { requestId: '', timestamp: '' }));

const blockedWith = (error: ApiError, bodyKey: string) => ({
  block: {
    customResponse: {
      responseCode: error.status,
      customResponseBodyKey: bodyKey,
      // WAF takes no empty list here.
      ...(Object.keys(error.headers).length && {
        responseHeaders: Object.entries(error.headers).map(([name, value]) => ({ name, value })),
      }),
    },
  },
});

const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });

/**
 * The paths of the public routes, as regular expressions of WAF (at most 200 characters each,
 * 10 to a set): the stage's name leads on the execute-api endpoint, not on a custom domain.
 */
export function publicPathPatterns(prefix: string, stageName: string, routes: readonly Route[]): string[] {
  const paths = [...new Set(routes.filter((r) => r.auth === 'none').map((r) => routePath(r, prefix)))];
  const alternatives = paths.map((path) => path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+'));
  const patterns: string[] = [];
  let current: string[] = [];
  const patternOf = (group: string[]) => `^(/${stageName})?(${group.join('|')})/?$`;
  for (const alternative of alternatives) {
    if (current.length && patternOf([...current, alternative]).length > 200) {
      patterns.push(patternOf(current));
      current = [];
    }
    current.push(alternative);
  }
  if (current.length) patterns.push(patternOf(current));
  return patterns;
}

/** An address over the rate stays refused until its count in the window falls back under: a minute is a fair first wait. */
const rateLimited = new ApiError(
  codes.RATE_LIMIT_EXCEEDED,
  'Too many requests from this address; slow down and retry in a minute.',
  { retry_after: 60 },
  {},
  { 'Retry-After': '60' },
);
const tooLarge = new PayloadTooLarge(maxInspectedBodyBytes);

const ipRateRule = (
  name: string,
  priority: number,
  limit: number,
  scopeDownStatement?: CfnWebACL.StatementProperty,
): CfnWebACL.RuleProperty => ({
  name,
  priority,
  statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit, evaluationWindowSec: rateWindowSeconds, scopeDownStatement } },
  action: blockedWith(rateLimited, 'RateLimited'),
  visibilityConfig: visibility(name),
});

const managedRule = (name: string, priority: number, counted: readonly string[] = []): CfnWebACL.RuleProperty => ({
  name,
  priority,
  statement: {
    managedRuleGroupStatement: {
      vendorName: 'AWS',
      name,
      ruleActionOverrides: counted.map((rule) => ({ name: rule, actionToUse: { count: {} } })),
    },
  },
  overrideAction: { none: {} },
  visibilityConfig: visibility(name),
});

/**
 * The stage's WebACL: rates per address (lower on the public routes), AWS's managed rules, and
 * a 64 KB body limit on the public routes; our own rules answer in the envelope.
 */
export class WebAcl extends Construct {
  constructor(scope: Construct, id: string, props: WebAclProps) {
    super(scope, id);
    const publicPaths = new CfnRegexPatternSet(this, 'PublicPaths', {
      scope: 'REGIONAL',
      description: 'The paths of the public routes, auth none in the route table',
      regularExpressionList: publicPathPatterns(props.prefix, props.stageName, props.routes),
    });
    // Matched decoded, as API Gateway routes it: `/regist%65r` is /register.
    const onPublicPath: CfnWebACL.StatementProperty = {
      regexPatternSetReferenceStatement: {
        arn: publicPaths.attrArn,
        fieldToMatch: { uriPath: {} },
        textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
      },
    };
    const acl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('TenantApi'),
      // API Gateway's default is 16 KB: the body rule needs the whole of its 64 KB seen.
      associationConfig: { requestBody: { API_GATEWAY: { defaultSizeInspectionLimit: 'KB_64' } } },
      customResponseBodies: {
        RateLimited: { contentType: 'APPLICATION_JSON', content: wafEnvelope(rateLimited) },
        TooLarge: { contentType: 'APPLICATION_JSON', content: wafEnvelope(tooLarge) },
      },
      rules: [
        ipRateRule('RatePerAddress', 0, props.rateLimit),
        // The public routes' methods share one throttle (lib/constructs/api.ts): without a rate of
        // their own per address, one address well under the rule above could spend it for everyone.
        ipRateRule('PublicRatePerAddress', 1, props.publicRateLimit, onPublicPath),
        managedRule('AWSManagedRulesAmazonIpReputationList', 2),
        managedRule('AWSManagedRulesCommonRuleSet', 3, countedCommonRules),
        managedRule('AWSManagedRulesKnownBadInputsRuleSet', 4),
        {
          name: 'PublicBodySize',
          priority: 5,
          // Only the public routes: posts (100 KB of content), batches and MCP calls take more,
          // behind the authorizer and the functions' own 256 KB limit; unknown paths run no function.
          statement: {
            andStatement: {
              statements: [
                onPublicPath,
                {
                  sizeConstraintStatement: {
                    // Larger than WAF inspects is "oversize", which matches.
                    fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
                    comparisonOperator: 'GT',
                    size: maxInspectedBodyBytes,
                    textTransformations: [{ priority: 0, type: 'NONE' }],
                  },
                },
              ],
            },
          },
          action: blockedWith(tooLarge, 'TooLarge'),
          visibilityConfig: visibility('PublicBodySize'),
        },
      ],
    });
    associateWebAcl(this, props.stage, acl.attrArn);
  }
}

/** Says, for cdk-nag, why the stage has no WebACL: the operator deployed it without one. */
export function acknowledgeNoWebAcl(restApi: RestApi): void {
  Validations.of(restApi).acknowledge({
    id: 'AwsSolutions-APIG3',
    reason:
      "Deployed with webAcl=false and no webAclArn, by the operator's choice: floods are bounded by the per-method stage throttles (the public routes', the documentation's, the unknown paths'), the tier usage plans and the reserved concurrency of the authorizer and the documentation function, not by WAF.",
  });
}

/** Puts a WebACL (the stack's, or one the account keeps: `webAclArn`) in front of the stage. */
export function associateWebAcl(scope: Construct, stage: Stage, webAclArn: string): void {
  new CfnWebACLAssociation(scope, 'Association', { resourceArn: stage.stageArn, webAclArn });
}
