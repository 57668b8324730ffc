import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Writes items straight into a table, 25 a BatchWriteItem call (its limit), until DynamoDB
 * has taken every one: how the bench seeds what would take minutes through the API.
 */
export async function putAll(client: DynamoDBDocumentClient, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let unprocessed: Record<string, unknown[]> | undefined = { [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) };
    while (unprocessed && Object.keys(unprocessed).length) {
      ({ UnprocessedItems: unprocessed } = await client.send(new BatchWriteCommand({ RequestItems: unprocessed as never })));
    }
  }
}
