import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { WebhookDeliveryItem } from '#core/store/items';
import { fanOut } from './fan-out.ts';
import { messageOf, wakeDelivery } from './wake.ts';

/** How far behind now the sweeper looks, so that it repairs what the normal path lost instead of racing it. */
export const sweepMarginMs = 2 * 60 * 1000;

/** How often it runs in AWS (the stack's schedule). */
export const sweepEveryMs = 60 * 1000;

/**
 * The metric the sweeper publishes every run (namespace METRICS_NAMESPACE): how long, in
 * seconds, the oldest delivery it found due has been waiting, 0 when none is. The stack
 * alarms on it (lib/constructs/monitoring.ts).
 */
export const oldestDueDeliveryMetric = 'OldestDueDeliveryAge';

/** Adds a sweep's oldest due delivery to the metrics the process publishes next. */
export function addOldestDueDelivery(metrics: Metrics, swept: SweepResult): void {
  metrics.addMetric(oldestDueDeliveryMetric, MetricUnit.Seconds, swept.oldestDueDeliverySeconds);
}

/** Items read per Query page of the due index. */
const pageSize = 100;

type Page<T> = { data: T[]; cursor: string | null };

/** Runs `each` on every page a paged query gives; the number of items seen. */
async function forEachPage<T>(read: (cursor: string | null) => Promise<Page<T>>, each: (items: T[]) => Promise<void>): Promise<number> {
  let seen = 0;
  let cursor: string | null = null;
  do {
    const page: Page<T> = await read(cursor);
    await each(page.data);
    seen += page.data.length;
    cursor = page.cursor;
  } while (cursor);
  return seen;
}

export interface SweepResult {
  /** Events fanned out. */
  events: number;
  /** Deliveries woken. */
  deliveries: number;
  /** How long the oldest of those deliveries has been due, in seconds; 0 when none was (or it is due later). */
  oldestDueDeliverySeconds: number;
}

/**
 * Repairs what a lost relay or wake-up left behind: fans out every event and wakes every
 * delivery due before `dueBefore`, from the due index. AWS runs it every minute with
 * `dueBefore` a little in the past, so that it does not race the normal path; the local runner
 * runs it at start with a far-future one, which re-arms every pending retry's timer.
 */
export async function sweep(deps: Deps, options: { dueBefore: Date }): Promise<SweepResult> {
  const before = options.dueBefore.toISOString();
  const { webhookEvent, webhookDelivery } = deps.db.entities;
  const events = await forEachPage(
    (cursor) =>
      webhookEvent.query
        .byDueAt({ dueBucket: 'webhookEvent' })
        .lt({ dueAt: before })
        .go({ ...hotPath, cursor, limit: pageSize }),
    (due) =>
      fanOut(
        deps,
        due.map((event) => event.id),
      ),
  );
  let oldestDueAt: string | undefined;
  const deliveries = await forEachPage(
    (cursor) =>
      webhookDelivery.query
        .byDueAt({ dueBucket: 'webhookDelivery' })
        .lt({ dueAt: before })
        .go({ ...hotPath, cursor, limit: pageSize }),
    (due) => {
      // The index is sorted by dueAt: the first delivery of the first page is the oldest.
      oldestDueAt ??= due[0]?.dueAt;
      return wakeAll(deps, due);
    },
  );
  const waitedMs = oldestDueAt ? deps.clock.now().getTime() - Date.parse(oldestDueAt) : 0;
  return { events, deliveries, oldestDueDeliverySeconds: Math.max(0, Math.floor(waitedMs / 1000)) };
}

async function wakeAll(deps: Deps, due: WebhookDeliveryItem[]) {
  const now = deps.clock.now().getTime();
  const overdue = due.filter((delivery) => Date.parse(delivery.dueAt!) <= now);
  if (overdue.length) await deps.deliveryQueue.send(overdue.map(messageOf), 0);
  for (const later of due.filter((delivery) => Date.parse(delivery.dueAt!) > now))
    await wakeDelivery(deps, messageOf(later), new Date(later.dueAt!));
}
