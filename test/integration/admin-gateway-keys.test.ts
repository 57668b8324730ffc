import { APIGatewayClient, CreateUsagePlanKeyCommand, DeleteUsagePlanKeyCommand, GetUsagePlansCommand } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { tierNames } from '#core/platform/tiers';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { openStore } from '#lib/admin/store';
import { tier } from '#lib/admin/tier';
import { sharedEndpoint, testDeps } from '../support/deps.ts';

/** The admin CLI builds its dependencies as the functions do: API Gateway's keys only where the plans are named. */
describe("the admin CLI's gateway keys", () => {
  const cloudFormation = mockClient(CloudFormationClient);
  const apiGateway = mockClient(APIGatewayClient);
  afterAll(() => {
    cloudFormation.restore();
    apiGateway.restore();
  });

  it('are the in-memory stand-in for a table named by TABLE_NAME alone', async () => {
    const { tableName } = await testDeps();
    const store = await openStore({ DYNAMODB_ENDPOINT: sharedEndpoint(), TABLE_NAME: tableName }, undefined);
    expect(store.deps.gatewayKeys).toHaveProperty('calls');
    store.close();
  });

  it("with --stack, are API Gateway's, in the stack's plans: a tier change moves the workspace's key", async () => {
    const deps = await testDeps();
    const owner = await createUser(deps, { name: 'Ada', email: 'ada@example.com', tier: 'free' });
    const workspace = await createWorkspace(deps, owner.id, { name: 'Acme' });
    const { gatewayKey } = (await deps.db.entities.workspace.get({ id: workspace.id }).go()).data!;
    const planNames = Object.fromEntries(tierNames.map((t) => [t, `Prod-${t}`]));
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Prod' }).resolves({
      Stacks: [
        {
          StackName: 'Prod',
          CreationTime: new Date(),
          StackStatus: 'UPDATE_COMPLETE',
          Outputs: [
            { OutputKey: 'TableName', OutputValue: deps.tableName },
            { OutputKey: 'GatewayUsagePlans', OutputValue: JSON.stringify(planNames) },
            { OutputKey: 'GatewayKeyBudget', OutputValue: '5000' },
          ],
        },
      ],
    });
    apiGateway.on(GetUsagePlansCommand).resolves({ items: tierNames.map((t) => ({ id: `id-${t}`, name: planNames[t] })) });
    apiGateway.on(DeleteUsagePlanKeyCommand).resolves({});
    apiGateway.on(CreateUsagePlanKeyCommand).resolves({});

    const store = await openStore({ DYNAMODB_ENDPOINT: sharedEndpoint() }, 'Prod');
    const printed: string[] = [];
    try {
      expect(store.deps.gatewayKeys.budget).toBe(5000);
      await tier.run(['--workspace', workspace.id, '--tier', 'pro', '--stack', 'Prod'], {
        open: async () => store.deps,
        print: (line = '') => printed.push(line),
      });
    } finally {
      store.close();
    }
    expect(printed).toEqual([`Workspace ${workspace.id} (Acme) is now on tier pro.`]);
    expect(apiGateway.commandCalls(DeleteUsagePlanKeyCommand).map((c) => c.args[0].input)).toEqual([
      { usagePlanId: 'id-free', keyId: gatewayKey!.id },
    ]);
    expect(apiGateway.commandCalls(CreateUsagePlanKeyCommand).map((c) => c.args[0].input)).toEqual([
      { usagePlanId: 'id-pro', keyId: gatewayKey!.id, keyType: 'API_KEY' },
    ]);
  });
});
