import type { GatewaySettings } from '#core/platform/config';
import { type Tier, tierNames } from '#core/platform/tiers';
import type { SharedGatewayKeys } from '#core/ports/gateway-keys';

/** Values of the stack's shared keys in the local runner: recognisable in a test's assertion. */
export const localSharedKeys: SharedGatewayKeys = {
  tiers: Object.fromEntries(tierNames.map((tier) => [tier, `local-shared-${tier}-usage-key`])) as Record<Tier, string>,
  anonymous: 'local-anonymous-usage-key',
};

/** The stack's shared keys as the configuration names them (the authorizer's), else the local ones. */
export const sharedKeysOf = (settings: Partial<GatewaySettings>): SharedGatewayKeys => ({
  tiers: settings.GATEWAY_SHARED_KEYS ?? localSharedKeys.tiers,
  anonymous: settings.GATEWAY_ANONYMOUS_KEY ?? localSharedKeys.anonymous,
});
