import { Stack } from 'aws-cdk-lib';
import { UsagePlan, type RestApi, type ThrottleSettings } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { tierNames, tiers, type Tier } from '#core/tiers';

/**
 * A tier's per-minute limit as API Gateway's token bucket: refilled at the per-second rate,
 * holding that second's requests plus the tier's burst allowance, and never less than one
 * request (API Gateway would refuse everything at zero).
 */
function throttleOf(tier: Tier): Required<ThrottleSettings> {
  const { requestsPerMinute, burstPercent } = tiers[tier];
  const rateLimit = requestsPerMinute / 60;
  return { rateLimit, burstLimit: Math.max(1, Math.ceil(rateLimit * (1 + burstPercent / 100))) };
}

export interface TierUsagePlansProps {
  api: RestApi;
}

/**
 * One usage plan per tier of the tier table. A plan limits the callers whose plan key the
 * authorizer returns as `usageIdentifierKey` on methods that require a key.
 */
export class TierUsagePlans extends Construct {
  constructor(scope: Construct, id: string, props: TierUsagePlansProps) {
    super(scope, id);
    for (const tier of tierNames) {
      new UsagePlan(this, tier, {
        name: `${Stack.of(this).stackName}-${tier}`,
        description: `Tier ${tier}: ${tiers[tier].requestsPerMinute} requests per minute`,
        throttle: throttleOf(tier),
        apiStages: [{ api: props.api, stage: props.api.deploymentStage }],
      });
    }
  }
}
