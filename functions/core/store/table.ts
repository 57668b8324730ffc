import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table's shape, from which the CDK stack and the local runner both build it, so
 * that the two cannot drift. `gsi2` is sparse: it holds only items with work ahead (`PRUNE#`,
 * `DUE#`, `SHARING#` partitions), so that a job finds its work with a Query and never scans the
 * table.
 */
export const tableDesign = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
  timeToLiveAttribute: 'ttl',
} as const;

/**
 * The `prunableAt` of an item with this TTL (epoch seconds): the instant from which code
 * treats the item as gone, and the pruning job may delete it.
 */
export const prunableFrom = (ttlSeconds: number): string => new Date(ttlSeconds * 1000).toISOString();

export function createTableInput(tableName: string): CreateTableCommandInput {
  const keys = [tableDesign, ...tableDesign.globalIndexes];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keys.flatMap((k) => [
      { AttributeName: k.partitionKey, AttributeType: 'S' as const },
      { AttributeName: k.sortKey, AttributeType: 'S' as const },
    ]),
    KeySchema: [
      { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: tableDesign.globalIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}
