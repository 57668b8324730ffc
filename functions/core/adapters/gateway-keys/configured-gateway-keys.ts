import { config, defaultGatewayKeyBudget, type GatewaySettings, type StoreSettings } from '#core/platform/config';
import type { GatewayKeys } from '#core/ports/gateway-keys';
import { apiGatewayKeys } from './api-gateway-keys.ts';
import { recordingGatewayKeys } from './recording-gateway-keys.ts';
import { sharedKeysOf } from './shared-keys.ts';

/**
 * API Gateway's keys where the configuration names the usage plans, else the in-memory
 * stand-in: for the processes that create, move or remove keys (their Lambdas, the admin CLI).
 */
export function configuredGatewayKeys(settings: StoreSettings & Partial<GatewaySettings>): GatewayKeys {
  const shared = sharedKeysOf(settings);
  const budget = settings.GATEWAY_KEY_BUDGET ?? defaultGatewayKeyBudget;
  if (!settings.GATEWAY_USAGE_PLANS) return recordingGatewayKeys({ budget, shared });
  return apiGatewayKeys({
    region: settings.AWS_REGION,
    plans: settings.GATEWAY_USAGE_PLANS,
    namePrefix: settings.GATEWAY_KEY_NAME_PREFIX ?? 'tenant-api',
    budget,
    shared,
  });
}

/** The gateway keys port's adapter in Lambda: the usage plans the stack names (GATEWAY_USAGE_PLANS). */
export const configuredApiGatewayKeys = (): GatewayKeys => configuredGatewayKeys(config());
