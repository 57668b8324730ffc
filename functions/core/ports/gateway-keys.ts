import type { Tier } from '#core/platform/tiers';

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

/** A key this deployment made for a workspace, as API Gateway lists it (without its value). */
export interface ListedGatewayKey {
  id: string;
  /** The workspace its name was made for (`<stack>-<workspace id>`). */
  workspaceId: string;
  createdAt: Date;
  /** The tier whose plan holds it; undefined when none of the tiers' plans does. */
  tier?: Tier;
}

/**
 * A failed create that made a key and could not delete it again: the key stays behind,
 * holding its place in the budget until the reconciliation job deletes it and gives the place back.
 */
export class GatewayKeyLeftBehind extends Error {}

/**
 * The port to API Gateway's per-workspace keys: each workspace's own key lives in its
 * tier's usage plan. The AWS adapter is api-gateway-keys.ts; the local runner and the tests
 * use recording-gateway-keys.ts.
 */
export interface GatewayKeys {
  /** How many dedicated keys the deployment may hold (the region's 10,000 minus a margin); past it, workspaces share. */
  readonly budget: number;
  readonly shared: SharedGatewayKeys;
  /**
   * A new enabled key for the workspace in its tier's plan; undefined when the region holds
   * no more keys. Fails with GatewayKeyLeftBehind when it made a key it could not delete again.
   */
  create(workspaceId: string, tier: Tier): Promise<GatewayKey | undefined>;
  /** Into the plan of `to`, out of the plan of `from` (none: in no plan); safe to repeat after a partial failure. */
  move(key: Pick<GatewayKey, 'id'>, from: Tier | undefined, to: Tier): Promise<void>;
  /** Deletes the key (and with it its place in its plan): true if it was there, false if it was gone already. */
  remove(key: Pick<GatewayKey, 'id'>): Promise<boolean>;
  /** Every key this deployment made for a workspace: what the reconciliation job compares with the table. */
  list(): Promise<ListedGatewayKey[]>;
}
