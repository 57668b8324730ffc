import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { putAll } from './seed.ts';

/** Copies every item of some partitions (by `pk`) from one table to another, as they are now. */
export async function copyPartitions(
  client: DynamoDBDocumentClient,
  from: string,
  to: string,
  partitions: readonly string[],
): Promise<number> {
  let copied = 0;
  for (const pk of partitions) {
    let after: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: from,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
          ExclusiveStartKey: after,
        }),
      );
      await putAll(client, to, page.Items ?? []);
      copied += page.Items?.length ?? 0;
      after = page.LastEvaluatedKey;
    } while (after);
  }
  return copied;
}
