import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { environments } from '#core/platform/environments';
import type { Deps } from '#core/ports/deps';
import { pixelDayPartition } from '#core/store/pixel-day-items';
import { eachPage, purgePageSize, queryPages } from '#core/store/query-pages';

/**
 * Deletes a workspace's pixel events and daily rollups, in both environments, page by
 * page (its claims go first, at the start of its deletion: site-claims.ts). Apart from the
 * tracking code so that the workspaces function bundles only this.
 */
export async function forgetPixelDataOf(deps: Deps, workspaceId: string): Promise<void> {
  const { pixelEvent } = deps.db.entities;
  for (const environment of environments) {
    await eachPage(
      (cursor) => pixelEvent.query.byVisitorDay({ workspaceId, environment }).go({ cursor, limit: purgePageSize, consistent: true }),
      (events) => pixelEvent.delete(events).go(),
    );
    await forgetRollups(deps, pixelDayPartition(workspaceId, environment));
  }
}

/** One item per day kept (at most the retention's days): deleted one by one. */
async function forgetRollups(deps: Deps, partition: string): Promise<void> {
  const { client, name } = deps.db.table;
  const keys = queryPages(client, {
    TableName: name,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  });
  for await (const page of keys) for (const key of page) await client.send(new DeleteCommand({ TableName: name, Key: key }));
}
