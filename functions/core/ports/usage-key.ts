import type { Tier } from '#core/platform/tiers';
import type { SharedGatewayKeys } from './gateway-keys.ts';

/** The key a workspace's requests are metered under at the edge: its own, else its tier's shared one. */
export const usageKeyOf = (shared: SharedGatewayKeys, workspace: { tier: Tier; gatewayKey?: { value: string } }): string =>
  workspace.gatewayKey?.value ?? shared.tiers[workspace.tier];
