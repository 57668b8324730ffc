import type { APIGatewayClient, CreateApiKeyCommandOutput } from '@aws-sdk/client-api-gateway';
import { idPattern } from '#core/platform/ids';
import { randomBase62 } from '#core/platform/secrets';
import { type Tier, tierNames } from '#core/platform/tiers';
import { GatewayKeyLeftBehind, type GatewayKeys, type ListedGatewayKey, type SharedGatewayKeys } from '#core/ports/gateway-keys';
import { stackTagKey } from './stack-tag.ts';

export interface ApiGatewayKeysSettings {
  region: string;
  /**
   * The usage plan of each tier by name (the stack's TierUsagePlans), found by name once per
   * process: their ids in the functions' environment would make a dependency cycle in
   * CloudFormation (function, method, deployment, stage, plan, function).
   */
  plans: Record<Tier, string>;
  /** Starts every key's name, so that the console shows whose it is, and is its stack tag's value: the stack's name. */
  namePrefix: string;
  budget: number;
  shared: SharedGatewayKeys;
}

/** Passes over the one failure that says the thing is already as wanted (gone, or already in the plan). */
const unless = (already: 'NotFoundException' | 'ConflictException') => (error: unknown) => {
  if ((error as Error).name !== already) throw error;
};

/**
 * GatewayKeys over API Gateway, for the functions that create, move or remove keys
 * (their definitions declare the gatewayKeys port). The SDK is loaded on the first call, so that their many
 * requests that touch no key never pay for its start-up.
 */
export function apiGatewayKeys(settings: ApiGatewayKeysSettings): GatewayKeys {
  let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-api-gateway'); client: APIGatewayClient }> | undefined;
  const load = () =>
    (loaded ??= import('@aws-sdk/client-api-gateway').then((sdk) => ({
      sdk,
      client: new sdk.APIGatewayClient({ region: settings.region }),
    })));

  let planIds: Promise<Map<string, string>> | undefined;
  const findPlans = async () => {
    const { sdk, client } = await load();
    const byName = new Map<string, string>();
    for await (const page of sdk.paginateGetUsagePlans({ client }, { limit: 500 })) {
      for (const plan of page.items ?? []) byName.set(plan.name!, plan.id!);
    }
    return byName;
  };
  const planOf = async (tier: Tier) => {
    const id = (
      await (planIds ??= findPlans().catch((error: unknown) => {
        planIds = undefined;
        throw error;
      }))
    ).get(settings.plans[tier]);
    if (!id) throw new Error(`API Gateway has no usage plan named ${settings.plans[tier]} (GATEWAY_USAGE_PLANS).`);
    return id;
  };

  const addToPlan = async (keyId: string, tier: Tier) => {
    const { sdk, client } = await load();
    await client.send(new sdk.CreateUsagePlanKeyCommand({ usagePlanId: await planOf(tier), keyId, keyType: 'API_KEY' }));
  };
  const remove = async (keyId: string) => {
    const { sdk, client } = await load();
    try {
      await client.send(new sdk.DeleteApiKeyCommand({ apiKey: keyId }));
      return true;
    } catch (error) {
      if ((error as Error).name === 'NotFoundException') return false;
      throw error;
    }
  };

  return {
    budget: settings.budget,
    shared: settings.shared,
    async create(workspaceId, tier) {
      const { sdk, client } = await load();
      let created: CreateApiKeyCommandOutput;
      try {
        created = await client.send(
          new sdk.CreateApiKeyCommand({
            name: `${settings.namePrefix}-${workspaceId}`,
            value: randomBase62(40),
            enabled: true,
            // Without it the role may not create the key, nor ever delete it (stack-tag.ts).
            tags: { [stackTagKey]: settings.namePrefix },
          }),
        );
      } catch (error) {
        // The region's 10,000 keys are taken (other stacks count too): the workspace shares its tier's key.
        if ((error as Error).name === 'LimitExceededException') return undefined;
        throw error;
      }
      const key = { id: created.id!, value: created.value! };
      try {
        await addToPlan(key.id, tier);
      } catch (error) {
        const deleted = await remove(key.id).then(
          () => true,
          () => false,
        );
        if (!deleted)
          throw new GatewayKeyLeftBehind(`API key ${key.id} of ${workspaceId} went into no plan and could not be deleted.`, {
            cause: error,
          });
        throw error;
      }
      return key;
    },
    async move(key, from, to) {
      const { sdk, client } = await load();
      if (from)
        await client
          .send(new sdk.DeleteUsagePlanKeyCommand({ usagePlanId: await planOf(from), keyId: key.id }))
          .catch(unless('NotFoundException'));
      await addToPlan(key.id, to).catch(unless('ConflictException'));
    },
    remove: (key) => remove(key.id),
    async list() {
      const { sdk, client } = await load();
      const prefix = `${settings.namePrefix}-`;
      const workspaceId = idPattern('workspace');
      const listed: ListedGatewayKey[] = [];
      // Every key of the region, told apart by name here: GetApiKeys' nameQuery is not documented as a prefix match.
      for await (const page of sdk.paginateGetApiKeys({ client }, { limit: 500 })) {
        for (const key of page.items ?? []) {
          const owner = key.name?.startsWith(prefix) ? key.name.slice(prefix.length) : '';
          if (workspaceId.test(owner)) listed.push({ id: key.id!, workspaceId: owner, createdAt: key.createdDate! });
        }
      }
      const tierOf = new Map<string, Tier>();
      for (const tier of tierNames) {
        for await (const page of sdk.paginateGetUsagePlanKeys({ client }, { usagePlanId: await planOf(tier), limit: 500 })) {
          for (const key of page.items ?? []) tierOf.set(key.id!, tier);
        }
      }
      return listed.map((key) => ({ ...key, tier: tierOf.get(key.id) }));
    },
  };
}
