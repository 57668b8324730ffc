import { configuredGatewayKeys } from '#core/adapters/gateway-keys/configured-gateway-keys';
import { config } from '#core/platform/config';
import type { Deps } from '#core/ports/deps';

/**
 * A function's dependencies with API Gateway's keys, for the only functions that create,
 * move or remove them (workspaces, sessions for registration, admin, the gateway key reconciler). A module of its own,
 * so that no other bundle holds the API Gateway client (test/unit/gateway-bundles.test.ts).
 */
export function withGatewayKeys(base: () => Deps): () => Deps {
  let deps: Deps | undefined;
  return () => (deps ??= { ...base(), gatewayKeys: configuredGatewayKeys(config()) });
}
