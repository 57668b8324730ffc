import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import * as z from 'zod/mini';
import { createDeps } from '#core/adapters/create-deps';
import { configuredGatewayKeys } from '#core/adapters/gateway-keys/configured-gateway-keys';
import { gatewaySettings, parseSettings, storeSettings } from '#core/platform/config';
import type { Deps } from '#core/ports/deps';
import { CommandFailed, UsageError } from './command.ts';

/** The store, and the gateway's keys: the in-memory stand-in unless GATEWAY_USAGE_PLANS or the stack names the plans. */
const settings = z.extend(storeSettings, gatewaySettings.shape);

export interface OpenedStore {
  deps: Deps;
  /** Where the commands act, for the operator to see: table, endpoint or region. */
  target: string;
  close(): void;
}

/**
 * Opens the table named by `--stack` (its TableName output, and its usage plans), else by TABLE_NAME, else the
 * local runner's default table when DYNAMODB_ENDPOINT is set. The table must exist: the
 * CLI never creates one, so a mistyped name cannot start a second, empty store.
 */
export async function openStore(env: NodeJS.ProcessEnv, stack: string | undefined): Promise<OpenedStore> {
  let cfg: z.output<typeof settings>;
  try {
    cfg = parseSettings(settings, env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const deployed = stack ? await settingsOfStack(stack, cfg.AWS_REGION) : undefined;
  if (deployed) cfg = { ...cfg, ...deployed.gateway };
  const tableName = deployed
    ? deployed.tableName
    : // Without TABLE_NAME, the local runner's default table, but only for a local endpoint.
      env.TABLE_NAME !== undefined || cfg.DYNAMODB_ENDPOINT
      ? cfg.TABLE_NAME
      : undefined;
  if (!tableName) {
    throw new UsageError('no table given: set TABLE_NAME (and DYNAMODB_ENDPOINT for a local store), or pass --stack <name>');
  }
  const where = cfg.DYNAMODB_ENDPOINT ?? `AWS ${cfg.AWS_REGION}`;
  const deps = createDeps({ ...cfg, TABLE_NAME: tableName }, { gatewayKeys: configuredGatewayKeys(cfg) });
  try {
    await deps.client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    deps.close();
    if ((error as Error).name === 'ResourceNotFoundException') {
      throw new CommandFailed(
        `table ${tableName} does not exist at ${where}: start the local runner (npm start) or deploy the stack first`,
      );
    }
    throw error;
  }
  return { deps, target: `table ${tableName} at ${where}`, close: deps.close };
}

/**
 * The store and the gateway's keys as a deployed stack's outputs name them: the table, and
 * the usage plans the functions put workspaces' keys in (so that the CLI's tier changes
 * move them as PATCH /admin/workspaces/{id} does). The CloudFormation client is loaded only for this.
 */
async function settingsOfStack(stackName: string, region: string) {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const client = new CloudFormationClient({ region });
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const output = (key: string) => Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
    const tableName = output('TableName');
    if (!tableName) throw new CommandFailed(`stack ${stackName} in ${region} has no TableName output`);
    const gateway = parseSettings(gatewaySettings, {
      GATEWAY_USAGE_PLANS: output('GatewayUsagePlans'),
      GATEWAY_KEY_BUDGET: output('GatewayKeyBudget'),
      GATEWAY_KEY_NAME_PREFIX: stackName,
    });
    return { tableName, gateway };
  } catch (error) {
    if ((error as Error).name === 'ValidationError') throw new CommandFailed(`stack ${stackName} not found in ${region}`);
    throw error;
  } finally {
    client.destroy();
  }
}
