import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { DeliveryStatus } from '#core/store/entities/delivery-status';

/** What a delivery count counts: one status, or all of an endpoint's deliveries. */
export type CountedStatus = DeliveryStatus | 'all';

const daySeconds = 86_400;

const dayOf = (epochSeconds: number) => Math.floor(epochSeconds / daySeconds);
const dayKey = (day: number) => String(day).padStart(7, '0');

/**
 * The earliest TTL a listed delivery has: deliveries leave the lists (and their counts) at
 * the start of the UTC day on which they expire, so that a list and its total agree to the
 * item, however late DynamoDB's TTL removes them.
 */
export const listedFromTtl = (now: Date): number => (dayOf(now.getTime() / 1000) + 1) * daySeconds;

/**
 * Moves an endpoint's delivery counts by atomic ADDs once the delivery's own conditional write
 * has held, so that each move happens once. Separate writes, not a transaction: every delivery
 * of an endpoint moves the same few items, and transactions on them would conflict under load
 * (a count a crash leaves one off never shows below the items seen, lists/list-page.ts).
 */
export async function moveDeliveryCounts(
  deps: Deps,
  webhookId: string,
  ttl: number,
  moves: Partial<Record<CountedStatus, number>>,
): Promise<void> {
  const day = dayOf(ttl);
  const countTtl = (day + 2) * daySeconds;
  await Promise.all(
    Object.entries(moves)
      .filter(([, by]) => by)
      .map(([status, by]) =>
        deps.db.entities.webhookDeliveryCount
          .update({ webhookId, status, expiryDay: dayKey(day) })
          .add({ value: by! })
          .set({ ttl: countTtl })
          .go({ ...hotPath, response: 'none' }),
      ),
  );
}

/** How many of an endpoint's deliveries (in a status, or all) a list shows now: one Query of at most 31 items. */
export async function deliveryCount(deps: Deps, webhookId: string, status: CountedStatus): Promise<number> {
  const firstListedDay = dayOf(listedFromTtl(deps.clock.now()));
  const { data } = await deps.db.entities.webhookDeliveryCount.query
    .byWebhook({ webhookId, status })
    .between({ expiryDay: dayKey(firstListedDay) }, { expiryDay: dayKey(9_999_999) })
    .go({ ...hotPath, consistent: true, pages: 'all' });
  return data.reduce((sum, count) => sum + Math.max(0, count.value), 0);
}
