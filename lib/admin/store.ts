import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { parseSettings, storeSettings } from '#core/config';
import { createDeps, type Deps } from '#core/deps';
import { CommandFailed, UsageError } from './command.ts';

export interface OpenedStore {
  deps: Deps;
  /** Where the commands act, for the operator to see: table, endpoint or region. */
  target: string;
  close(): void;
}

/**
 * Opens the table named by `--stack` (its TableName output), else by TABLE_NAME, else the
 * local runner's default table when DYNAMODB_ENDPOINT is set. The table must exist: the
 * CLI never creates one, so a mistyped name cannot start a second, empty store.
 */
export async function openStore(env: NodeJS.ProcessEnv, stack: string | undefined): Promise<OpenedStore> {
  let cfg;
  try {
    cfg = parseSettings(storeSettings, env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const tableName = stack
    ? await tableOfStack(stack, cfg.AWS_REGION)
    : // Without TABLE_NAME, the local runner's default table, but only for a local endpoint.
      env.TABLE_NAME !== undefined || cfg.DYNAMODB_ENDPOINT
      ? cfg.TABLE_NAME
      : undefined;
  if (!tableName) {
    throw new UsageError('no table given: set TABLE_NAME (and DYNAMODB_ENDPOINT for a local store), or pass --stack <name>');
  }
  const where = cfg.DYNAMODB_ENDPOINT ?? `AWS ${cfg.AWS_REGION}`;
  const deps = createDeps({ ...cfg, TABLE_NAME: tableName });
  try {
    await deps.client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    deps.close();
    if ((error as Error).name === 'ResourceNotFoundException') {
      throw new CommandFailed(`table ${tableName} does not exist at ${where}: start the local runner (npm start) or deploy the stack first`);
    }
    throw error;
  }
  return { deps, target: `table ${tableName} at ${where}`, close: deps.close };
}

/** The TableName output of a deployed stack. The CloudFormation client is loaded only for this. */
async function tableOfStack(stackName: string, region: string): Promise<string> {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const client = new CloudFormationClient({ region });
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const output = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === 'TableName')?.OutputValue;
    if (!output) throw new CommandFailed(`stack ${stackName} in ${region} has no TableName output`);
    return output;
  } catch (error) {
    if ((error as Error).name === 'ValidationError') throw new CommandFailed(`stack ${stackName} not found in ${region}`);
    throw error;
  } finally {
    client.destroy();
  }
}
