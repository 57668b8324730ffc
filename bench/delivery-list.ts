import { eventRetentionDays } from '#core/events/outbox';
import type { BootstrapResult } from '#core/operations/bootstrap';
import { newId } from '#core/platform/ids';
import type { WebhookDeliveryItem } from '#core/store/items';
import { moveDeliveryCounts } from '#core/webhooks/delivery-counts';
import type { Counters } from './counters.ts';
import { alternatePageOne, type ListFigures, pageOneOf } from './lists.ts';
import { putAll } from './seed.ts';
import { addEndpoints, type WebhookBench } from './webhook-setup.ts';

const daySeconds = 86_400;
/** Seeded deliveries were made over this many days before now, evenly: so their counts span that many expiry days, as a busy endpoint's do. */
const spreadDays = 28;

/** A delivery that succeeded at its first attempt, `createdAt`, as the worker leaves one. */
function deliveredOnce(webhookId: string, owner: WebhookBench['owner'], createdAt: Date): WebhookDeliveryItem {
  const at = createdAt.toISOString();
  return {
    id: newId('delivery', createdAt),
    webhookId,
    ...owner,
    eventId: newId('event', createdAt),
    eventType: 'workspace.updated',
    status: 'success',
    attempt: 1,
    responseCode: 200,
    responseExcerpt: 'ok',
    responseTimeMs: 3,
    attempts: [{ attempt: 1, at, status_code: 200, response_time_ms: 3 }],
    deliveredAt: at,
    lastAttemptAt: at,
    createdAt: at,
    updatedAt: at,
    ttl: Math.floor(createdAt.getTime() / 1000) + eventRetentionDays * daySeconds,
  };
}

/**
 * `size` deliveries of an endpoint written straight into the table (records as ElectroDB
 * builds them), and its delivery counts moved as the worker moves them, one move per
 * expiry day: 10,000 deliveries made by the worker would take minutes.
 */
async function seedDeliveries(bench: WebhookBench, webhookId: string, size: number) {
  const { deps } = bench;
  const start = Date.now() - spreadDays * daySeconds * 1000;
  const items = Array.from({ length: size }, (_, i) =>
    deliveredOnce(webhookId, bench.owner, new Date(start + Math.floor((i * spreadDays * daySeconds * 1000) / size))),
  );
  await putAll(
    deps.client,
    deps.tableName,
    items.map((item) => deps.db.entities.webhookDelivery.put(item).params<{ Item: Record<string, unknown> }>().Item),
  );
  const byDay = new Map<number, { ttl: number; count: number }>();
  for (const { ttl } of items) {
    const day = Math.floor(ttl / daySeconds);
    byDay.set(day, { ttl, count: (byDay.get(day)?.count ?? 0) + 1 });
  }
  for (const { ttl, count } of byDay.values()) await moveDeliveryCounts(deps, webhookId, ttl, { all: count, success: count });
}

/**
 * Page one of `GET /webhooks/{id}/deliveries?per_page=25` for two endpoints of the bench
 * workspace holding `sizes` deliveries, over HTTP through the local runner. The endpoints
 * subscribe to `link.clicked` only, which nothing in the bench emits.
 */
export async function measureDeliveryListPageOne(
  bench: WebhookBench,
  baseUrl: string,
  bootstrap: BootstrapResult,
  counters: Counters,
  options: { sizes: [number, number]; requests: number; receiverUrl: string },
): Promise<ListFigures> {
  const ids = await addEndpoints(bench, 2, (i) => `${options.receiverUrl}/list/${i}`, ['link.clicked']);
  for (const [i, size] of options.sizes.entries()) await seedDeliveries(bench, ids[i]!, size);
  const headers = { Authorization: `Bearer ${bootstrap.apiKey}`, 'X-Workspace-ID': bench.owner.workspaceId };
  const pageOne = (i: number) =>
    pageOneOf(`${baseUrl}/webhooks/${ids[i]}/deliveries?per_page=25`, headers, options.sizes[i]!, 'deliveries');
  return alternatePageOne(counters, options.requests, options.sizes, [pageOne(0), pageOne(1)]);
}
