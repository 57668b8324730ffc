import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/** A page of an ElectroDB Query: its items, and where the next page starts (null after the last). */
export interface QueryPage<T> {
  data: T[];
  cursor: string | null;
}

/** Items read, and deleted, per page when a workspace's data is removed: never all of it in memory at once. */
export const purgePageSize = 500;

/** Reads a Query page by page (each `read` from where the last ended) and hands each non-empty page to `each`. */
export async function eachPage<T>(
  read: (cursor: string | null) => Promise<QueryPage<T>>,
  each: (rows: T[]) => Promise<unknown>,
): Promise<void> {
  let cursor: string | null = null;
  do {
    const page = await read(cursor);
    if (page.data.length) await each(page.data);
    cursor = page.cursor;
  } while (cursor);
}

/**
 * A raw document-client Query, page by page (a page per megabyte, or per `Limit`): for the
 * items ElectroDB does not model (rollups, meter shards). Yields each page's items.
 */
export async function* queryPages(
  client: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): AsyncGenerator<Record<string, unknown>[]> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey }));
    yield page.Items ?? [];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** Every item a raw Query matches, in key order: for partitions known to be small. */
export async function queryAll<T>(client: DynamoDBDocumentClient, input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of queryPages(client, input)) items.push(...(page as T[]));
  return items;
}
