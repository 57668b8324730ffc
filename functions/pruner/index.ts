import type { Context, ScheduledEvent } from 'aws-lambda';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { type PruneCounts, pruneExpired } from '#core/operations/pruning';
import { telemetry } from '#core/platform/telemetry';
import { prunerFunction } from './definition.ts';

/** Time kept back from the Lambda timeout to finish the page in hand and log. */
const reserveMs = 15_000;

const deps = lambdaDeps(prunerFunction, {});

/**
 * The EventBridge schedule's target: deletes what has finished and logs the counts. A run
 * that nears the timeout stops after its current page; the next run goes on from there.
 */
export async function handler(_event: ScheduledEvent, context: Context): Promise<PruneCounts & { complete: boolean }> {
  const started = Date.now();
  let stopped = false;
  const pruned = await pruneExpired(deps(), {
    shouldStop: () => (stopped = context.getRemainingTimeInMillis() < reserveMs),
  });
  const result = { ...pruned, complete: !stopped };
  telemetry().logger.info('pruned', { ...result, durationMs: Date.now() - started });
  return result;
}
