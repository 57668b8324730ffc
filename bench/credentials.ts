import { type Counters, countedSeries, type SeriesFigures } from './counters.ts';
import type { SideBySide } from './side-by-side.ts';

export interface CredentialFigures {
  /** DynamoDB calls of the first request with this credential, by command. */
  coldRequestCalls: Record<string, number>;
  /** Sequential warm requests: latency, and DynamoDB calls and bcrypt compares per request. */
  warm: SeriesFigures;
  /** The load, in turns with the DB-bound ceiling's. */
  load: SideBySide;
  /** bcrypt compares over every request of the phase. */
  bcryptCompares: number;
  requests: number;
}

/**
 * One credential type on the runner: a cold first request, `countedReads` sequential warm
 * ones whose DynamoDB calls are counted, then a load; bcrypt compares over all of them.
 */
export async function measureCredential(
  counters: Counters,
  countedReads: number,
  request: () => Promise<void>,
  loadIt: () => Promise<SideBySide>,
): Promise<CredentialFigures> {
  counters.calls.reset();
  counters.bcrypt.reset();
  await request();
  const coldRequestCalls = counters.calls.snapshot();
  const coldCompares = counters.bcrypt.compares();
  const warm = await countedSeries(counters, countedReads, request);
  counters.bcrypt.reset();
  const load = await loadIt();
  return {
    coldRequestCalls,
    warm,
    load,
    bcryptCompares: coldCompares + warm.bcryptComparesEach * countedReads + counters.bcrypt.compares(),
    requests: 1 + countedReads + load.runner.warmup.responses + load.runner.measured.responses,
  };
}
