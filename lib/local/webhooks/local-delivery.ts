import { telemetry } from '#core/platform/telemetry';
import type { Deps } from '#core/ports/deps';
import type { DeliveryMessage, DeliveryQueue, EventRelay, RetryScheduler } from '#core/ports/webhook-delivery';
import { attemptDelivery } from '#core/webhooks/attempt';
import { fanOut } from '#core/webhooks/fan-out';
import { sweep, sweepEveryMs, sweepMarginMs } from '#core/webhooks/sweeper';

/** Never sweep more often than this, whatever WEBHOOK_RETRY_SCALE says. */
const shortestSweepMs = 1_000;
/** setTimeout's longest delay; a longer wait is re-armed by the sweeper instead. */
const longestTimerMs = 2 ** 31 - 1;
/** The far future: at start, every pending delivery is re-armed, however far off. */
const everything = new Date(8.64e15);

export interface LocalDelivery {
  /** What the runner's dependencies get in place of the table's stream, SQS and EventBridge Scheduler. */
  ports: { eventRelay: EventRelay; deliveryQueue: DeliveryQueue; retryScheduler: RetryScheduler };
  /** Re-arms what the table says is pending (a restart loses no retry), then sweeps as AWS does. */
  start(deps: Deps): Promise<void>;
  /** Drops every timer and waits for the attempts under way. */
  stop(): Promise<void>;
}

/**
 * Webhook delivery on timers, running the Lambdas' own fan-out, worker and sweeper code: a
 * timer dies with the process, so `start` re-arms every pending delivery from the table, which
 * stays the truth.
 */
export function localDelivery(retryScale: number): LocalDelivery {
  let deps: Deps | undefined;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const underWay = new Set<Promise<void>>();
  const { logger } = telemetry();

  const run = (what: string, work: (deps: Deps) => Promise<unknown>) => {
    if (stopped || !deps) return;
    const job: Promise<void> = work(deps)
      .then(
        () => {},
        (error: Error) => logger.error(`webhook ${what} failed`, error),
      )
      .finally(() => underWay.delete(job));
    underWay.add(job);
  };
  const after = (delayMs: number, what: string, work: (deps: Deps) => Promise<unknown>) => {
    if (stopped) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        run(what, work);
      },
      Math.min(Math.max(0, delayMs), longestTimerMs),
    );
    timers.add(timer);
  };
  const attempt = (message: DeliveryMessage) => (d: Deps) => attemptDelivery(d, message);

  const ports: LocalDelivery['ports'] = {
    eventRelay: { relay: async (eventIds) => after(0, 'fan-out', (d) => fanOut(d, eventIds)) },
    deliveryQueue: {
      send: async (messages, delaySeconds) => {
        for (const message of messages) after(delaySeconds * 1000, 'attempt', attempt(message));
      },
    },
    retryScheduler: {
      schedule: async (message, at) => after(at.getTime() - (deps?.clock.now() ?? new Date()).getTime(), 'attempt', attempt(message)),
    },
  };

  let sweeping: Promise<unknown> | undefined;
  const sweepOverdue = () => {
    if (sweeping || !deps) return;
    const dueBefore = new Date(deps.clock.now().getTime() - sweepMarginMs * retryScale);
    sweeping = sweep(deps, { dueBefore })
      .catch((error: Error) => logger.error('webhook sweep failed', error))
      .finally(() => (sweeping = undefined));
  };
  let sweeper: NodeJS.Timeout | undefined;

  return {
    ports,
    start: async (given) => {
      deps = given;
      await sweep(given, { dueBefore: everything });
      sweeper = setInterval(sweepOverdue, Math.max(shortestSweepMs, sweepEveryMs * retryScale));
    },
    stop: async () => {
      stopped = true;
      clearInterval(sweeper);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await sweeping;
      await Promise.all(underWay);
    },
  };
}
