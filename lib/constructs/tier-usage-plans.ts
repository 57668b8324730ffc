import { Aws, type CfnElement, Names, Stack, Tags, Validations } from 'aws-cdk-lib';
import { ApiKey, Period, type RestApi, type ThrottleSettings, UsagePlan } from 'aws-cdk-lib/aws-apigateway';
import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { stackTagKey } from '#core/adapters/gateway-keys/stack-tag';
import { allowanceOf } from '#core/platform/rate-limits';
import { type Tier, tierNames, tiers } from '#core/platform/tiers';
import type { FunctionEnvironment } from './function-environment.ts';

/** API Gateway's default account limits per region: no plan can let more through. */
const accountThrottle = { rateLimit: 10_000, burstLimit: 5_000 };

/**
 * A tier at the edge, for all of a workspace's credentials together: a bucket of a minute of
 * the tier's test allowance (twice the live one), so it stops only floods no credential could
 * be allowed; the exact limit is the application's usage meter (metering/).
 */
function throttleOf(tier: Tier): Required<ThrottleSettings> {
  const { limit } = allowanceOf(tier, 'test');
  return { rateLimit: Math.min(limit / 60, accountThrottle.rateLimit), burstLimit: Math.min(limit, accountThrottle.burstLimit) };
}

/**
 * The edge's monthly quota is a backstop, not the quota: it counts a workspace's live and
 * test requests and its refusals together, and knows nothing of packages, so it sits at
 * ten times the tier's api_calls. The exact quota is the application's (metering/).
 */
export const edgeQuotaFactor = 10;

function quotaOf(tier: Tier) {
  const limit = tiers[tier].entitlements.api_calls;
  return limit === null ? undefined : { limit: limit * edgeQuotaFactor, period: Period.MONTH };
}

/**
 * What refused credentials are metered under, all together: enough for honest mistakes
 * (an expired key, a missing header), a ceiling on floods of made-up credentials.
 */
const anonymousThrottle = { rateLimit: 100, burstLimit: 200 };

export interface TierUsagePlansProps {
  api: RestApi;
  /** The stage's own per-method limit: the only edge limit on the workspaces that share a key. */
  stageThrottle: Required<ThrottleSettings>;
}

/**
 * A usage plan per tier holding workspaces' own keys, a plan per tier for the key its sharers
 * use, and one for refused credentials: the authorizer names one of these keys per request
 * (docs/tenancy-and-limits.md, Usage plans at the edge).
 */
export class TierUsagePlans extends Construct {
  /** The plans of the workspaces' own keys, by tier. */
  readonly plans: Record<Tier, UsagePlan>;
  /** Settings of functions/core/platform/config.ts: for the functions that create, move and remove keys. */
  readonly keyManagerEnvironment: FunctionEnvironment;
  /** Settings of functions/core/platform/config.ts: for the authorizer, which returns the shared keys. */
  readonly authorizerEnvironment: FunctionEnvironment;

  constructor(scope: Construct, id: string, props: TierUsagePlansProps) {
    super(scope, id);
    const { stackName } = Stack.of(this);
    const apiStages = [{ api: props.api, stage: props.api.deploymentStage }];
    // Values are ours to choose and in the template: they identify a meter, they grant nothing,
    // since the RestApi takes keys only from the authorizer (apiKeySourceType AUTHORIZER).
    const stackKey = (name: string, value: string, plan: UsagePlan) => {
      const key = new ApiKey(this, `${name}Key`, { apiKeyName: `${stackName}-${name}`, value, enabled: true });
      Tags.of(key).add(stackTagKey, stackName);
      plan.addApiKey(key);
    };

    const plans = {} as Record<Tier, UsagePlan>;
    const shared = {} as Record<Tier, string>;
    for (const tier of tierNames) {
      plans[tier] = new UsagePlan(this, tier, {
        name: `${stackName}-${tier}`,
        description: `Tier ${tier}: ${tiers[tier].requestsPerMinute} requests per minute, each workspace's own key`,
        throttle: throttleOf(tier),
        quota: quotaOf(tier),
        apiStages,
      });
      // A quota counts per key: on a shared key it would be the sum of every sharer's, so there is none.
      const sharedPlan = new UsagePlan(this, `${tier}-shared`, {
        name: `${stackName}-${tier}-shared`,
        description: `Tier ${tier}: the key its workspaces past the key budget share`,
        throttle: props.stageThrottle,
        apiStages,
      });
      shared[tier] = `${stackName}-shared-${tier}-usage-key`;
      stackKey(`shared-${tier}`, shared[tier], sharedPlan);
    }
    const anonymousPlan = new UsagePlan(this, 'anonymous', {
      name: `${stackName}-anonymous`,
      description: 'Refused credentials, answered 401 or 403 by the functions',
      throttle: anonymousThrottle,
      apiStages,
    });
    const anonymous = `${stackName}-anonymous-usage-key`;
    stackKey('anonymous', anonymous, anonymousPlan);

    this.plans = plans;
    this.keyManagerEnvironment = {
      // Names, not ids: an id here would close a cycle (function, method, deployment, stage, plan).
      GATEWAY_USAGE_PLANS: JSON.stringify(Object.fromEntries(tierNames.map((tier) => [tier, `${stackName}-${tier}`]))),
      GATEWAY_KEY_NAME_PREFIX: stackName,
    };
    this.authorizerEnvironment = { GATEWAY_SHARED_KEYS: JSON.stringify(shared), GATEWAY_ANONYMOUS_KEY: anonymous };
  }

  /**
   * Lets a function create and delete API keys and put them into and out of these plans,
   * and find the plans by name. A policy of its own, not the role's default one, which the
   * function depends on: the plans depend on the stage, which depends on the function.
   */
  grantKeyManagement(role: IRole): void {
    const planKeys = this.planKeys();
    const keyTags = apiGatewayArn(`/tags/arn%3A${Aws.PARTITION}%3Aapigateway%3A${Aws.REGION}%3A%3A%2Fapikeys%2F*`);
    const { stackName } = Stack.of(this);
    const policy = new Policy(this, `KeyManagement${Names.nodeUniqueId(role.node)}`, {
      roles: [role],
      statements: [
        new PolicyStatement({ actions: ['apigateway:GET'], resources: [apiGatewayArn('/usageplans')] }),
        // A key only with this stack's tag, and no other tag.
        new PolicyStatement({
          actions: ['apigateway:POST'],
          resources: [apiGatewayArn('/apikeys')],
          conditions: {
            StringEquals: { [`aws:RequestTag/${stackTagKey}`]: stackName },
            'ForAllValues:StringEquals': { 'aws:TagKeys': [stackTagKey] },
          },
        }),
        // Tagging a resource as it is made is authorized as a PUT on its tags (as for CreateRestApi):
        // the same conditions, on the tags of API keys only.
        new PolicyStatement({
          actions: ['apigateway:PUT'],
          resources: [keyTags],
          conditions: {
            StringEquals: { [`aws:RequestTag/${stackTagKey}`]: stackName },
            'ForAllValues:StringEquals': { 'aws:TagKeys': [stackTagKey] },
          },
        }),
        new PolicyStatement({
          actions: ['apigateway:DELETE'],
          resources: [apiGatewayArn('/apikeys/*')],
          conditions: { StringEquals: { [`aws:ResourceTag/${stackTagKey}`]: stackName } },
        }),
        // Into and out of this stack's plans: named by the plans' ids, not by the keys' tag.
        new PolicyStatement({ actions: ['apigateway:POST'], resources: planKeys }),
        new PolicyStatement({ actions: ['apigateway:DELETE'], resources: planKeys.map((keys) => `${keys}/*`) }),
      ],
    });
    const planIdOf = (plan: UsagePlan) => Stack.of(this).getLogicalId(plan.node.defaultChild as CfnElement);
    const nagId = (resource: string) =>
      `AwsSolutions-IAM5[Resource::${resource.replaceAll(Aws.PARTITION, '<AWS::Partition>').replaceAll(Aws.REGION, '<AWS::Region>')}]`;
    Validations.of(policy).acknowledge(
      {
        id: nagId(apiGatewayArn('/apikeys/*')),
        reason: `Keys are made at run time, one per workspace, so their ids are not known here: DELETE names any key of the region, but only on condition that it carries this stack's ${stackTagKey} tag (the stack's own shared and anonymous keys carry it too; the code deletes only keys named after a workspace). Tagging at creation needs PUT on the keys' tags, which would also let a function bent on it tag another key first: the condition keeps the code's mistakes to this stack's keys, it is no wall against a compromised function.`,
      },
      {
        id: nagId(keyTags),
        reason: `Tagging a key as it is created (CreateApiKey with tags) is authorized as a PUT on its tags, whose id is not known beforehand: only API keys' tags, only this stack's ${stackTagKey} tag and no other.`,
      },
      ...Object.values(this.plans).map((plan) => ({
        id: nagId(apiGatewayArn(`/usageplans/<${planIdOf(plan)}>/keys/*`)),
        reason:
          "Removes a key from this stack's own usage plan (named by the plan's id) when a workspace changes tier or goes. The key's tag cannot condition this: the resource is the plan's key entry, which carries the plan's tags, not the key's; so any key is named, but only within this plan.",
      })),
    );
  }

  /**
   * Key management, and the listing the reconciliation job compares with the table: every
   * API key of the region (GET /apikeys, which names no key) and the keys of these plans.
   */
  grantKeyReconciliation(role: IRole): void {
    this.grantKeyManagement(role);
    new Policy(this, `KeyListing${Names.nodeUniqueId(role.node)}`, {
      roles: [role],
      statements: [new PolicyStatement({ actions: ['apigateway:GET'], resources: [apiGatewayArn('/apikeys'), ...this.planKeys()] })],
    });
  }

  /** The keys of each tier's plan, as a resource. */
  private planKeys(): string[] {
    return Object.values(this.plans).map((plan) => apiGatewayArn(`/usageplans/${plan.usagePlanId}/keys`));
  }
}

/** An API Gateway resource of this region, for IAM. */
const apiGatewayArn = (path: string) => `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::${path}`;
