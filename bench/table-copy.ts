import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryPages } from '#core/store/query-pages';
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
    const pages = queryPages(client, {
      TableName: from,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    });
    for await (const items of pages) {
      await putAll(client, to, items);
      copied += items.length;
    }
  }
  return copied;
}
