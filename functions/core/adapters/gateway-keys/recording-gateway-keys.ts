import { defaultGatewayKeyBudget } from '#core/platform/config';
import { randomBase62 } from '#core/platform/secrets';
import type { Tier } from '#core/platform/tiers';
import type { GatewayKey, GatewayKeys, ListedGatewayKey, SharedGatewayKeys } from '#core/ports/gateway-keys';
import { localSharedKeys } from './shared-keys.ts';

/** A call of the port, as the stand-in records it. */
export type GatewayKeyCall =
  | { call: 'create'; workspaceId: string; tier: Tier; key: GatewayKey }
  | { call: 'move'; keyId: string; from: Tier | undefined; to: Tier }
  | { call: 'remove'; keyId: string };

export interface RecordingGatewayKeys extends GatewayKeys {
  /** Every call, in order. */
  readonly calls: GatewayKeyCall[];
  /** The tier whose plan holds each key that exists, by key id. */
  readonly plans: ReadonlyMap<string, Tier>;
}

/**
 * GatewayKeys without API Gateway, for the local runner and the tests: it keeps the keys
 * and their plans in memory and records every call, silently. The local runner has no usage
 * plans to enforce; its gateway counts what each key would be metered (lib/local/gateway.ts).
 * `now` dates the keys it makes, as API Gateway does (a test's clock).
 */
export function recordingGatewayKeys(
  options: { budget?: number; shared?: SharedGatewayKeys; now?: () => Date } = {},
): RecordingGatewayKeys {
  const calls: GatewayKeyCall[] = [];
  const plans = new Map<string, Tier>();
  const made = new Map<string, { workspaceId: string; createdAt: Date }>();
  const now = options.now ?? (() => new Date());
  return {
    budget: options.budget ?? defaultGatewayKeyBudget,
    shared: options.shared ?? localSharedKeys,
    calls,
    plans,
    async create(workspaceId, tier) {
      const key = { id: randomBase62(10).toLowerCase(), value: randomBase62(40) };
      made.set(key.id, { workspaceId, createdAt: now() });
      plans.set(key.id, tier);
      calls.push({ call: 'create', workspaceId, tier, key });
      return key;
    },
    async move(key, from, to) {
      if (made.has(key.id)) plans.set(key.id, to);
      calls.push({ call: 'move', keyId: key.id, from, to });
    },
    async remove(key) {
      const existed = made.delete(key.id);
      plans.delete(key.id);
      calls.push({ call: 'remove', keyId: key.id });
      return existed;
    },
    async list() {
      return [...made].map(([id, key]): ListedGatewayKey => ({ id, ...key, tier: plans.get(id) }));
    },
  };
}
