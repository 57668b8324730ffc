import type { Tier } from '../tiers.ts';

/**
 * An API Gateway API key: `value` is what the authorizer returns as `usageIdentifierKey`.
 * With the RestApi's `apiKeySourceType: AUTHORIZER`, clients can neither send nor choose a
 * key, so a value identifies a usage plan's meter; it grants nothing.
 */
export interface GatewayKey {
  id: string;
  value: string;
}

/**
 * The keys the stack itself creates, which callers without a key of their own are metered
 * under: one per tier for the workspaces past the dedicated-key budget, and one for refused
 * credentials (so that API Gateway lets our 401 through; see authorizer/authorize.ts).
 */
export interface SharedGatewayKeys {
  tiers: Record<Tier, string>;
  anonymous: string;
}

/**
 * Dedicated keys a deployment may hold by default: API Gateway allows 10,000 per account and
 * region, a quota that cannot be raised; the rest is left to other stacks and to mistakes.
 */
export const defaultGatewayKeyBudget = 9_000;

/**
 * The port to API Gateway's per-workspace keys: each workspace's own key lives in its
 * tier's usage plan. The AWS adapter is api-gateway-keys.ts; the local runner and the tests
 * use recording-gateway-keys.ts.
 */
export interface GatewayKeys {
  /** How many dedicated keys the deployment may hold (the region's 10,000 minus a margin); past it, workspaces share. */
  readonly budget: number;
  readonly shared: SharedGatewayKeys;
  /** A new enabled key for the workspace in its tier's plan; undefined when the region holds no more keys. */
  create(workspaceId: string, tier: Tier): Promise<GatewayKey | undefined>;
  /** From one tier's plan to another's; safe to repeat after a partial failure. */
  move(key: GatewayKey, from: Tier, to: Tier): Promise<void>;
  /** Deletes the key (and with it its place in its plan); a key already gone is no error. */
  remove(key: GatewayKey): Promise<void>;
}
