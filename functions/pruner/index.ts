import type { Context, ScheduledEvent } from 'aws-lambda';
import { runtimeDeps } from '#core/adapters/runtime';
import { type PruneCounts, pruneExpired } from '#core/operations/pruning';
import { telemetry } from '#core/platform/telemetry';

/** Time kept back from the Lambda timeout to finish the page in hand and log. */
const reserveMs = 15_000;

/**
 * The EventBridge schedule's target: deletes what has finished and logs the counts. A run
 * that nears the timeout stops after its current page; the next run goes on from there.
 */
export async function handler(_event: ScheduledEvent, context: Context): Promise<PruneCounts & { complete: boolean }> {
  const started = Date.now();
  let stopped = false;
  const pruned = await pruneExpired(runtimeDeps(), {
    shouldStop: () => (stopped = context.getRemainingTimeInMillis() < reserveMs),
  });
  const result = { ...pruned, complete: !stopped };
  telemetry().logger.info('pruned', { ...result, durationMs: Date.now() - started });
  return result;
}
