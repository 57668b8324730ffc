import { CreateTableCommand, DescribeTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTableInput, tableDesign } from '#core/store/table';

/** Creates the single table from the same design the CDK stack uses, when it is missing. */
export async function ensureTable(client: DynamoDBDocumentClient, tableName: string): Promise<'created' | 'existing'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existing';
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: true },
    }),
  );
  return 'created';
}
