import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  ApiKeySourceType,
  type CfnAuthorizer,
  EndpointType,
  IdentitySource,
  LogGroupLogDestination,
  type MethodDeploymentOptions,
  MethodLoggingLevel,
  RequestAuthorizer,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type Route, routePath } from '#core/http/route-types';
import { type LambdaFunctionName, routes } from '#routes';
import { CustomDomain, type CustomDomainProps, enforceModernTls } from './custom-domain.ts';
import { addRouteMethods } from './route-methods.ts';
import { type UnmatchedSettings, unmatchedResourcesOf } from './unmatched-answers.ts';

/**
 * Per method, across all callers: within the account's default quota (10,000 rps, burst
 * 5,000) and above the largest tier's plan, so the tier limits bind first.
 */
export const stageThrottle = { rateLimit: 5_000, burstLimit: 5_000 };

/**
 * The pixel's routes, per method: every visitor of every tracked site calls them, so they get
 * an allowance of their own that a flood cannot take from the credential routes.
 */
export const trackerThrottle = { rateLimit: 1_000, burstLimit: 500 };

/**
 * The other public routes, per method: a login costs a bcrypt, so 100 a second holds the
 * sessions function near 25 concurrent executions where the stage's 5,000 would take the
 * account's.
 */
export const publicThrottle = { rateLimit: 100, burstLimit: 200 };

/**
 * The paths that lead nowhere (`{proxy+}` and the resources on the way to the routes):
 * API Gateway answers them 404 itself, at no function's cost, so this only bounds what a
 * scanner adds to the request bill and the access log.
 */
export const unmatchedThrottle = { rateLimit: 200, burstLimit: 100 };

/**
 * The documentation's paths (pages, openapi.json/.yaml, llms.txt), public and served by one
 * function with a few executions reserved (lib/constructs/docs-routes.ts): people reading
 * and agents fetching the document, well within this; a flood of them stays here.
 */
export const docsThrottle = { rateLimit: 20, burstLimit: 40 };

type Throttle = typeof stageThrottle;

/** Which allowance of its own a route's methods draw on: the public ones', the tracker's first. */
const throttleOf = (route: Route): Throttle | undefined =>
  route.cors === 'any-origin' ? trackerThrottle : route.auth === 'none' ? publicThrottle : undefined;

// A method's settings replace the stage's: its logging and metrics are stated again.
const throttled = (throttle: Throttle): MethodDeploymentOptions => ({
  throttlingRateLimit: throttle.rateLimit,
  throttlingBurstLimit: throttle.burstLimit,
  loggingLevel: MethodLoggingLevel.ERROR,
  metricsEnabled: true,
  dataTraceEnabled: false,
});

/**
 * The stage's method throttles, keyed `/<resource path>/<METHOD>`: the public routes, and `*`
 * on the paths that only answer 404 and the documentation's (not on resources with routes,
 * where `*` would replace theirs).
 */
function methodThrottles(prefix: string, table: readonly Route[], documentationResources: readonly string[]) {
  const options: Record<string, MethodDeploymentOptions> = {};
  for (const route of table) {
    const throttle = throttleOf(route);
    if (!throttle) continue;
    for (const method of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) {
      options[`${routePath(route, prefix)}/${method}`] = throttled(throttle);
    }
  }
  // The root's own settings cannot be named this way (`//*`); it is one path, answered 404 like the rest.
  for (const { template } of unmatchedResourcesOf(prefix, table).filter((r) => !r.allowed.length && r.template !== '/')) {
    options[`${template}/*`] = throttled(unmatchedThrottle);
  }
  for (const resource of documentationResources) options[`/${resource}/*`] = throttled(docsThrottle);
  return options;
}

/**
 * One line of the access log per request. The authorizer's principal is the user id it
 * answered (never the credential); the API key API Gateway metered
 * (`$context.identity.apiKey`) is left out on purpose: it is the credential's usage key.
 */
export const accessLogFields = {
  requestId: AccessLogField.contextRequestId(),
  extendedRequestId: AccessLogField.contextExtendedRequestId(),
  requestTime: AccessLogField.contextRequestTime(),
  ip: AccessLogField.contextIdentitySourceIp(),
  userAgent: AccessLogField.contextIdentityUserAgent(),
  httpMethod: AccessLogField.contextHttpMethod(),
  resourcePath: AccessLogField.contextResourcePath(),
  path: AccessLogField.contextPath(),
  protocol: AccessLogField.contextProtocol(),
  status: AccessLogField.contextStatus(),
  responseLength: AccessLogField.contextResponseLength(),
  responseLatency: AccessLogField.contextResponseLatency(),
  errorType: AccessLogField.contextErrorResponseType(),
  error: AccessLogField.contextErrorMessage(),
  principalId: AccessLogField.contextAuthorizerPrincipalId(),
  authorizerError: AccessLogField.contextAuthorizerError(),
  authorizerLatency: AccessLogField.contextAuthorizerLatency(),
  // `$context.integration.*` (AccessLogField has only the older names): an authorizer's call is not counted in them.
  integrationStatus: '$context.integration.status',
  integrationError: '$context.integration.error',
  integrationLatency: '$context.integration.latency',
  wafResponseCode: AccessLogField.contextWafResponseCode(),
};

export interface ApiProps {
  /** The path prefix of every route, without slashes at the ends: `api/v1`. */
  prefix: string;
  stageName: string;
  routeFunctions: Record<LambdaFunctionName, IFunction>;
  authorizerFunction: IFunction;
  /** What API Gateway's own 404, 405 and preflight answers depend on (unmatched-answers.ts). */
  unmatched: UnmatchedSettings;
  /** The documentation's resources (lib/constructs/docs-routes.ts), throttled on their own; none when it is off. */
  documentationResources: readonly string[];
  /** How long the access and execution logs are kept. */
  logRetention: RetentionDays;
  /** Serves the API at this domain only, the execute-api endpoint disabled. */
  customDomain?: CustomDomainProps;
  /** The customer-managed key of the access logs (constructs/encryption-key.ts); unset, CloudWatch Logs' own. */
  encryptionKey?: IKey;
}

/**
 * The REST API: one method per entry of the route table, the credential authorizer in
 * front of them, and API Gateway's own answers (MOCK) for everything the table does not define.
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  /** The API's base address, prefix included. */
  readonly url: string;
  /** The custom domain, when the API is served at one (its DNS target is a stack output). */
  readonly domain?: CustomDomain;
  /** The access log group: a stack output, for the operator. */
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, encryptionKey: props.encryptionKey });
    this.accessLogs = accessLogs;
    this.restApi = new RestApi(this, 'RestApi', {
      // The stack's name: API Gateway's metrics (and so the alarms) tell the APIs of an account apart by it.
      restApiName: Stack.of(this).stackName,
      description: 'Multi-tenant REST API',
      endpointTypes: [EndpointType.REGIONAL],
      // With a custom domain, clients reach the API there alone: its TLS policy is the one that holds.
      disableExecuteApiEndpoint: props.customDomain !== undefined,
      // Usage plans find the caller's plan key in what the authorizer returns, not in x-api-key.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // Every body reaches the functions as its bytes, in base64: as text, API Gateway would
      // replace bytes that are not UTF-8 with U+FFFD unseen, where the functions refuse them
      // (functions/core/http/unicode-text.ts). Answers stay text: the functions never set
      // isBase64Encoded, and API Gateway only decodes an answer that does.
      binaryMediaTypes: ['*/*'],
      // Access and execution logs need API Gateway's account-wide CloudWatch role. Other APIs
      // in the account rely on it too, so it outlives this stack.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: props.stageName,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
        loggingLevel: MethodLoggingLevel.ERROR,
        // Request and response bodies would put credentials and tenant data in the logs.
        dataTraceEnabled: false,
        metricsEnabled: true,
        tracingEnabled: true,
        throttlingRateLimit: stageThrottle.rateLimit,
        throttlingBurstLimit: stageThrottle.burstLimit,
        methodOptions: methodThrottles(`/${props.prefix}`, routes, props.documentationResources),
      },
    });
    enforceModernTls(this.restApi);
    // API Gateway would make the execution log's group itself, kept forever: made here first, with a retention.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${props.stageName}`,
      retention: props.logRetention,
      encryptionKey: props.encryptionKey,
    });
    this.restApi.deploymentStage.node.addDependency(executionLogs);

    const authorizer = new RequestAuthorizer(this, 'CredentialAuthorizer', {
      handler: props.authorizerFunction,
      identitySources: [IdentitySource.header('Authorization')],
      // A cached verdict would keep a revoked key working until it expired. The authorizer
      // keeps its own per-process cache of bcrypt results and still reads the key record.
      resultsCacheTtl: Duration.seconds(0),
    });
    // CDK insists on an identity source; without caching API Gateway needs none. Dropping it
    // means the authorizer also sees requests without an Authorization header (session
    // cookies, and a missing credential answered by our code with an ISO 8601 timestamp).
    (authorizer.node.defaultChild as CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');

    addRouteMethods(this.restApi.root, `/${props.prefix}`, routes, {
      routeFunctions: props.routeFunctions,
      authorizer,
      unmatched: props.unmatched,
    });
    this.domain = props.customDomain && new CustomDomain(this, 'Domain', { ...props.customDomain, stage: this.restApi.deploymentStage });
    this.url = this.urlForPath(`/${props.prefix}`);
    // CDK's own output of the execute-api URL: the stack's ApiUrl says where the API is, a custom domain's included.
    this.restApi.node.tryRemoveChild('Endpoint');

    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          "The functions validate every request against the route table's zod schemas, answering 400/422 in our envelope with field errors.",
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: "API Gateway's CloudWatch role is one per account and region, shared by every REST API there; this is AWS's policy for it.",
      },
    );
  }

  /** Where a path is served: at the custom domain when there is one (the execute-api endpoint is then off), else the stage's URL. */
  urlForPath(path: string): string {
    return this.domain ? this.domain.urlForPath(path) : this.restApi.urlForPath(path);
  }
}
