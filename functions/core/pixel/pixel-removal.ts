import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { environments } from '#core/platform/environments';
import type { Deps } from '#core/ports/deps';
import type { PixelEventItem } from '#core/store/items';
import { pixelDayPartition } from '#core/store/pixel-day-items';

/** Items read, and deleted, per Query page. */
const pageSize = 500;

/**
 * Deletes a workspace's pixel events and daily rollups, in both environments, page by
 * page (its claims go first, at the start of its deletion: site-claims.ts). Apart from the
 * tracking code so that the workspaces function bundles only this.
 */
export async function forgetPixelDataOf(deps: Deps, workspaceId: string): Promise<void> {
  const { pixelEvent } = deps.db.entities;
  for (const environment of environments) {
    let cursor: string | null = null;
    do {
      const page: { data: PixelEventItem[]; cursor: string | null } = await pixelEvent.query
        .byVisitorDay({ workspaceId, environment })
        .go({ cursor, limit: pageSize, consistent: true });
      if (page.data.length) await pixelEvent.delete(page.data).go();
      cursor = page.cursor;
    } while (cursor);
    await forgetRollups(deps, pixelDayPartition(workspaceId, environment));
  }
}

/** One item per day kept (at most the retention's days): deleted one by one. */
async function forgetRollups(deps: Deps, partition: string): Promise<void> {
  const { client, name } = deps.db.table;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: name,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const key of page.Items ?? []) await client.send(new DeleteCommand({ TableName: name, Key: key }));
    start = page.LastEvaluatedKey;
  } while (start);
}
