import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeysCommand,
  GetUsagePlanKeysCommand,
  GetUsagePlansCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { apiGatewayKeys } from '#core/adapters/gateway-keys/api-gateway-keys';
import { localSharedKeys } from '#core/adapters/gateway-keys/shared-keys';
import { stackTagKey } from '#core/adapters/gateway-keys/stack-tag';
import { tierNames } from '#core/platform/tiers';
import { GatewayKeyLeftBehind } from '#core/ports/gateway-keys';

const plans = Object.fromEntries(tierNames.map((tier) => [tier, `Stack-${tier}`])) as Record<(typeof tierNames)[number], string>;
const planIds = Object.fromEntries(tierNames.map((tier) => [tier, `id${tier}`]));
const gatewayKeys = () => apiGatewayKeys({ region: 'eu-west-1', plans, namePrefix: 'Stack', budget: 9000, shared: localSharedKeys });
const failure = (name: string) => Object.assign(new Error(name), { name });

describe('the API Gateway keys adapter', () => {
  const apiGateway = mockClient(APIGatewayClient);
  beforeEach(() => {
    apiGateway.reset();
    // Two pages, as GetUsagePlans gives them: the plans are found by name across pages.
    apiGateway
      .on(GetUsagePlansCommand)
      .resolvesOnce({ items: tierNames.slice(0, 3).map((t) => ({ id: planIds[t], name: plans[t] })), position: 'p2' })
      .resolvesOnce({
        items: [...tierNames.slice(3).map((t) => ({ id: planIds[t], name: plans[t] })), { id: 'other', name: 'Other-free' }],
      });
    apiGateway.on(CreateApiKeyCommand).callsFake((input) => ({ id: 'k1', name: input.name, value: input.value, enabled: true }));
    apiGateway.on(CreateUsagePlanKeyCommand).resolves({ id: 'k1', type: 'API_KEY' });
    apiGateway.on(DeleteApiKeyCommand).resolves({});
  });
  const inputsOf = (command: Parameters<typeof apiGateway.commandCalls>[0]) =>
    apiGateway.commandCalls(command).map((call) => call.args[0].input);

  it('creates an enabled key named after the stack and workspace and tagged with the stack, with a 40-character value of ours, in the tier’s plan', async () => {
    const key = await gatewayKeys().create('wks_01ABC', 'pro');

    const [created] = inputsOf(CreateApiKeyCommand) as { value: string }[];
    expect(created).toEqual({
      name: 'Stack-wks_01ABC',
      value: expect.stringMatching(/^[0-9A-Za-z]{40}$/),
      enabled: true,
      tags: { [stackTagKey]: 'Stack' },
    });
    expect(key).toEqual({ id: 'k1', value: created!.value });
    expect(inputsOf(CreateUsagePlanKeyCommand)).toEqual([{ usagePlanId: 'idpro', keyId: 'k1', keyType: 'API_KEY' }]);
    // The paginator reuses one input object, so the first call's is read here as it ended.
    expect(inputsOf(GetUsagePlansCommand)).toEqual([
      { limit: 500, position: 'p2' },
      { limit: 500, position: 'p2' },
    ]);
  });

  it('looks the plans up once per process', async () => {
    const keys = gatewayKeys();
    await keys.create('wks_1', 'free');
    await keys.create('wks_2', 'agency');
    expect(inputsOf(GetUsagePlansCommand)).toHaveLength(2);
    expect(inputsOf(CreateUsagePlanKeyCommand).map((i) => i.usagePlanId)).toEqual(['idfree', 'idagency']);
  });

  it('answers no key when the region holds no more (LimitExceeded), so that the workspace shares', async () => {
    apiGateway.on(CreateApiKeyCommand).rejects(failure('LimitExceededException'));
    await expect(gatewayKeys().create('wks_1', 'free')).resolves.toBeUndefined();
    expect(inputsOf(CreateUsagePlanKeyCommand)).toEqual([]);
  });

  it('deletes the key again when it cannot go into its plan, and fails', async () => {
    apiGateway.on(CreateUsagePlanKeyCommand).rejects(failure('BadRequestException'));
    await expect(gatewayKeys().create('wks_1', 'free')).rejects.toThrow('BadRequestException');
    expect(inputsOf(DeleteApiKeyCommand)).toEqual([{ apiKey: 'k1' }]);
  });

  it('says a key was left behind when it can neither go into its plan nor be deleted again', async () => {
    apiGateway.on(CreateUsagePlanKeyCommand).rejects(failure('BadRequestException'));
    apiGateway.on(DeleteApiKeyCommand).rejects(failure('TooManyRequestsException'));
    const failed = await gatewayKeys()
      .create('wks_1', 'free')
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(GatewayKeyLeftBehind);
    expect((failed as Error).cause).toMatchObject({ name: 'BadRequestException' });
  });

  it('fails on a plan the account does not have', async () => {
    const keys = apiGatewayKeys({
      region: 'eu-west-1',
      plans: { ...plans, free: 'Missing-free' },
      namePrefix: 'Stack',
      budget: 1,
      shared: localSharedKeys,
    });
    await expect(keys.create('wks_1', 'free')).rejects.toThrow('API Gateway has no usage plan named Missing-free');
  });

  it('moves a key by taking it out of the old tier’s plan and putting it in the new one’s', async () => {
    apiGateway.on(DeleteUsagePlanKeyCommand).resolves({});
    await gatewayKeys().move({ id: 'k1' }, 'free', 'business');
    expect(inputsOf(DeleteUsagePlanKeyCommand)).toEqual([{ usagePlanId: 'idfree', keyId: 'k1' }]);
    expect(inputsOf(CreateUsagePlanKeyCommand)).toEqual([{ usagePlanId: 'idbusiness', keyId: 'k1', keyType: 'API_KEY' }]);
  });

  it('a repeated move after a partial one succeeds: out of the old plan already, in the new one already', async () => {
    apiGateway.on(DeleteUsagePlanKeyCommand).rejects(failure('NotFoundException'));
    apiGateway.on(CreateUsagePlanKeyCommand).rejects(failure('ConflictException'));
    await expect(gatewayKeys().move({ id: 'k1' }, 'free', 'pro')).resolves.toBeUndefined();
  });

  it('a move fails on any other failure', async () => {
    apiGateway.on(DeleteUsagePlanKeyCommand).rejects(failure('TooManyRequestsException'));
    await expect(gatewayKeys().move({ id: 'k1' }, 'free', 'pro')).rejects.toThrow('TooManyRequestsException');
    expect(inputsOf(CreateUsagePlanKeyCommand)).toEqual([]);
  });

  it('removes a key by deleting it, which takes it out of its plan; a key already gone is no error, and says so', async () => {
    apiGateway.on(DeleteApiKeyCommand).resolvesOnce({}).rejectsOnce(failure('NotFoundException'));
    const keys = gatewayKeys();
    await expect(keys.remove({ id: 'k1' })).resolves.toBe(true);
    await expect(keys.remove({ id: 'k1' })).resolves.toBe(false);
    expect(inputsOf(DeleteApiKeyCommand)).toEqual([{ apiKey: 'k1' }, { apiKey: 'k1' }]);
    expect(inputsOf(GetUsagePlansCommand)).toEqual([]);
  });

  it('puts a key that is in no plan into one without taking it out of any', async () => {
    await gatewayKeys().move({ id: 'k1' }, undefined, 'pro');
    expect(inputsOf(DeleteUsagePlanKeyCommand)).toEqual([]);
    expect(inputsOf(CreateUsagePlanKeyCommand)).toEqual([{ usagePlanId: 'idpro', keyId: 'k1', keyType: 'API_KEY' }]);
  });

  it("lists the stack's workspace keys across pages, by name, with the tier whose plan holds each", async () => {
    const created = new Date('2026-03-01T10:00:00Z');
    const key = (id: string, name: string) => ({ id, name, createdDate: created, enabled: true });
    apiGateway
      .on(GetApiKeysCommand)
      .resolvesOnce({
        items: [
          key('a', 'Stack-wks_01JABCDEFGHJKMNPQRSTVWXYZ0'),
          key('shared', 'Stack-shared-free'),
          key('other', 'Other-wks_01JABCDEFGHJKMNPQRSTVWXYZ1'),
        ],
        position: 'next',
      })
      .resolvesOnce({
        items: [
          key('b', 'Stack-wks_01JABCDEFGHJKMNPQRSTVWXYZ2'),
          key('c', 'Stack-Staging-wks_01JABCDEFGHJKMNPQRSTVWXYZ3'),
          key('d', 'Stack-wks_01JABCDEFGHJKMNPQRSTVWXYZ4'),
        ],
      });
    apiGateway.on(GetUsagePlanKeysCommand).callsFake(({ usagePlanId }) => ({
      items:
        usagePlanId === 'idpro'
          ? [{ id: 'a', type: 'API_KEY' }]
          : usagePlanId === 'idfree'
            ? [
                { id: 'b', type: 'API_KEY' },
                { id: 'shared-not-ours', type: 'API_KEY' },
              ]
            : [],
    }));

    expect(await gatewayKeys().list()).toEqual([
      { id: 'a', workspaceId: 'wks_01JABCDEFGHJKMNPQRSTVWXYZ0', createdAt: created, tier: 'pro' },
      { id: 'b', workspaceId: 'wks_01JABCDEFGHJKMNPQRSTVWXYZ2', createdAt: created, tier: 'free' },
      { id: 'd', workspaceId: 'wks_01JABCDEFGHJKMNPQRSTVWXYZ4', createdAt: created, tier: undefined },
    ]);
    // Values are never asked for: the job needs ids, names and dates.
    expect(inputsOf(GetApiKeysCommand)).toEqual([
      { limit: 500, position: 'next' },
      { limit: 500, position: 'next' },
    ]);
    expect(inputsOf(GetUsagePlanKeysCommand).map((input) => input.usagePlanId)).toEqual(tierNames.map((tier) => planIds[tier]));
    expect(inputsOf(GetUsagePlanKeysCommand).every((input) => input.limit === 500)).toBe(true);
  });
});
