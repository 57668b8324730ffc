import { CreateTableCommand, DescribeTableCommand, UpdateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTableInput, tableDesign } from '#core/store/table';

/**
 * Creates the single table from the same design the CDK stack uses, when it is missing,
 * and adds any index the design gained since a kept local table was made (`DATA_DIR`).
 */
export async function ensureTable(client: DynamoDBDocumentClient, tableName: string): Promise<'created' | 'updated' | 'existing'> {
  let existing: string[] | undefined;
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    existing = (Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName!);
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  const input = createTableInput(tableName);
  if (!existing) {
    await client.send(new CreateTableCommand(input));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: true },
      }),
    );
    return 'created';
  }
  const missing = (input.GlobalSecondaryIndexes ?? []).filter((index) => !existing.includes(index.IndexName!));
  // DynamoDB adds one index per UpdateTable call.
  for (const index of missing) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: input.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
      }),
    );
  }
  return missing.length ? 'updated' : 'existing';
}
