import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Hasher } from '#core/ports/deps';
import { type Latency, latencyOf, timed } from './stats.ts';

/**
 * Counts DynamoDB commands sent through a document client, by command name, marking
 * strongly consistent reads. The middleware sits in the `initialize` step, which runs
 * once per `send`, so SDK retries are not counted twice.
 */
export function countDynamoDbCalls() {
  const byCommand = new Map<string, number>();
  const attach = (client: DynamoDBDocumentClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const consistent = (args.input as { ConsistentRead?: boolean }).ConsistentRead === true;
        const name = `${context.commandName ?? 'unknown'}${consistent ? ' (consistent)' : ''}`;
        byCommand.set(name, (byCommand.get(name) ?? 0) + 1);
        return next(args);
      },
      { step: 'initialize', name: 'benchCallCounter' },
    );
    return client;
  };
  return {
    attach,
    total: () => [...byCommand.values()].reduce((a, b) => a + b, 0),
    snapshot: () => Object.fromEntries(byCommand),
    reset: () => byCommand.clear(),
  };
}

/** Wraps a hasher to count `compare` calls, i.e. bcrypt verifications. */
export function countBcryptCompares(inner: Hasher) {
  let compares = 0;
  const hasher: Hasher = {
    hash: (plain) => inner.hash(plain),
    compare: (plain, hash) => {
      compares++;
      return inner.compare(plain, hash);
    },
  };
  return { hasher, compares: () => compares, reset: () => (compares = 0) };
}

export interface Counters {
  calls: ReturnType<typeof countDynamoDbCalls>;
  bcrypt: ReturnType<typeof countBcryptCompares>;
}

/** Latency of some calls, with the bcrypt compares and DynamoDB calls each one made on average. */
export interface SeriesFigures extends Latency {
  bcryptComparesEach: number;
  dynamoDbCallsEach: number;
  dynamoDbCallsEachByCommand: Record<string, number>;
}

/**
 * Times calls one at a time and adds up what each one cost, as the counters' difference
 * across it: tallies of different kinds of call can then be interleaved, so that a
 * machine getting busier or quieter meanwhile does not favour one kind.
 */
export function tally(counters: Counters) {
  const ms: number[] = [];
  let compares = 0;
  const calls = new Map<string, number>();
  return {
    async time(attempt: () => Promise<unknown>): Promise<void> {
      const [comparesBefore, callsBefore] = [counters.bcrypt.compares(), counters.calls.snapshot()];
      ms.push((await timed(attempt)).ms);
      compares += counters.bcrypt.compares() - comparesBefore;
      for (const [name, n] of Object.entries(counters.calls.snapshot()))
        calls.set(name, (calls.get(name) ?? 0) + n - (callsBefore[name] ?? 0));
    },
    figures(): SeriesFigures {
      const each = (count: number) => count / ms.length;
      return {
        ...latencyOf(ms),
        bcryptComparesEach: each(compares),
        dynamoDbCallsEach: each([...calls.values()].reduce((a, b) => a + b, 0)),
        dynamoDbCallsEachByCommand: Object.fromEntries([...calls].filter(([, n]) => n).map(([name, n]) => [name, each(n)])),
      };
    },
  };
}

/** `runs` sequential calls of `attempt`, tallied. */
export async function countedSeries(counters: Counters, runs: number, attempt: (i: number) => Promise<unknown>): Promise<SeriesFigures> {
  const t = tally(counters);
  for (let i = 0; i < runs; i++) await t.time(() => attempt(i));
  return t.figures();
}
