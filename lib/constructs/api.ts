import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
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
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type Route, routePath } from '#core/http/route-types';
import { type LambdaFunctionName, routes } from '#routes';
import { addRouteMethods } from './route-methods.ts';

/**
 * Per method, across all callers: within the account's default quota (10,000 rps, burst
 * 5,000) and above the largest tier's plan, so the tier limits bind first.
 */
export const stageThrottle = { rateLimit: 5_000, burstLimit: 5_000 };

/**
 * The public tracker's routes (any origin, no credential: the pixel), per method: every
 * visitor of every tracked site calls them, so they get their own allowance, well under
 * the stage's, that a flood of them cannot take from the credential routes. Per address,
 * the function's own limit (300 a minute) applies within it.
 */
export const trackerThrottle = { rateLimit: 1_000, burstLimit: 500 };

/** The stage's method settings for the tracker's routes, keyed `/<resource path>/<METHOD>` as API Gateway names them. */
function trackerMethodOptions(prefix: string, table: readonly Route[]): Record<string, MethodDeploymentOptions> {
  const options: Record<string, MethodDeploymentOptions> = {};
  for (const route of table.filter((r) => r.cors === 'any-origin')) {
    for (const method of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) {
      // A method's settings replace the stage's: its logging and metrics are stated again.
      options[`${routePath(route, prefix)}/${method}`] = {
        throttlingRateLimit: trackerThrottle.rateLimit,
        throttlingBurstLimit: trackerThrottle.burstLimit,
        loggingLevel: MethodLoggingLevel.ERROR,
        metricsEnabled: true,
        dataTraceEnabled: false,
      };
    }
  }
  return options;
}

export interface ApiProps {
  /** The path prefix of every route, without slashes at the ends: `api/v1`. */
  prefix: string;
  stageName: string;
  routeFunctions: Record<LambdaFunctionName, IFunction>;
  authorizerFunction: IFunction;
  fallbackFunction: IFunction;
  /** The customer-managed key of the access logs (constructs/encryption-key.ts); unset, CloudWatch Logs' own. */
  encryptionKey?: IKey;
}

/**
 * The REST API: one method per entry of the route table, the credential authorizer in
 * front of them, and the fallback function behind everything the table does not define.
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  /** The API's base address, prefix included. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH, encryptionKey: props.encryptionKey });
    this.restApi = new RestApi(this, 'RestApi', {
      description: 'Multi-tenant REST API',
      endpointTypes: [EndpointType.REGIONAL],
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
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: MethodLoggingLevel.ERROR,
        // Request and response bodies would put credentials and tenant data in the logs.
        dataTraceEnabled: false,
        metricsEnabled: true,
        tracingEnabled: true,
        throttlingRateLimit: stageThrottle.rateLimit,
        throttlingBurstLimit: stageThrottle.burstLimit,
        methodOptions: trackerMethodOptions(`/${props.prefix}`, routes),
      },
    });

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
      fallbackFunction: props.fallbackFunction,
      authorizer,
    });
    this.url = this.restApi.urlForPath(`/${props.prefix}`);

    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          "The functions validate every request against the route table's zod schemas, answering 400/422 in our envelope with field errors.",
      },
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'Rate limits are per tenant (application limiter, tier usage plans); a WAF web ACL, paid per ACL and request, is chosen per account at deployment.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: "API Gateway's CloudWatch role is one per account and region, shared by every REST API there; this is AWS's policy for it.",
      },
    );
  }
}
