import { emitEvents } from '#core/events/outbox';
import { ConcurrencyLimit } from '#core/platform/concurrency-limit';
import type { DeliveryMessage } from '#core/ports/webhook-delivery';
import { attemptDelivery } from '#core/webhooks/attempt';
import { ensureTable } from '#lib/local/table-setup';
import type { RecordedCall } from './call-recorder.ts';
import { setsDeliverySuccess } from './delivery-watch.ts';
import { type MemoryFigures, memorySampler } from './memory.ts';
import type { Receiver } from './receiver.ts';
import { replay } from './replay.ts';
import { copyPartitions } from './table-copy.ts';
import type { WebhookBench } from './webhook-setup.ts';

export interface ThroughputFigures {
  /** Deliveries timed, after `warmupDeliveries` attempted and replayed untimed. */
  deliveries: number;
  warmupDeliveries: number;
  concurrency: number;
  /** Attempts (each one signed POST to the receiver, answered 200) per second. */
  deliveriesPerSecond: number;
  /** The same attempts' DynamoDB calls alone, replayed, per second. */
  ceilingPerSecond: number;
  ratio: number;
  /** This process's CPU time per delivery (the receiver's share included), and per replayed delivery. */
  attemptCpuMsEach: number;
  replayCpuMsEach: number;
  dynamoDbCallsEach: number;
  dynamoDbCallsEachByCommand: Record<string, number>;
  /** The bench process while the timed attempts ran (not while they were replayed), from after the warm-up. */
  memory: MemoryFigures;
}

/** Runs `work` over `items`, at most `concurrency` at a time; the results, in order, the wall time and this process's CPU time. */
async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<{ results: R[]; ms: number; cpuMs: number }> {
  const lanes = new ConcurrencyLimit(concurrency);
  const [started, cpuBefore] = [performance.now(), process.cpuUsage()];
  const results = await Promise.all(items.map((item) => lanes.run(() => work(item))));
  const cpu = process.cpuUsage(cpuBefore);
  return { results, ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Timed attempts and their replays take turns this many times each, so that a machine growing busier or quieter favours neither. */
const alternations = 5;

/** The partition key of an item, as its entity's `params()` builds it. */
const partitionOf = (params: { Key?: { pk?: unknown } }) => String(params.Key?.pk);

/**
 * Delivery throughput of the worker's own `attemptDelivery`, against a ceiling that replays
 * exactly its DynamoDB calls on a copy of the table: the difference is signing, sending and
 * ElectroDB.
 */
export async function measureDeliveryThroughput(
  bench: WebhookBench,
  receiver: Receiver,
  endpointIds: readonly string[],
  options: { events: number; warmupEvents: number; concurrency: number; workspace: object },
): Promise<ThroughputFigures> {
  const { deps } = bench;
  const { client, tableName: table, db } = deps;
  const eventsBefore = bench.relayed.length;
  for (let i = 0; i < options.warmupEvents + options.events; i++)
    await emitEvents(deps, [{ type: 'workspace.updated', origin: bench.owner, data: options.workspace }]);
  const messages: DeliveryMessage[] = bench.queued.splice(0);
  const expected = (options.warmupEvents + options.events) * endpointIds.length;
  if (messages.length !== expected) throw new Error(`fan-out queued ${messages.length} deliveries, not ${expected}`);

  const copy = `${table}-ceiling`;
  await ensureTable(client, copy);
  await copyPartitions(client, table, copy, [
    partitionOf(db.entities.webhookEndpoint.get({ ...bench.owner, id: endpointIds[0]! }).params()),
    ...endpointIds.map((webhookId) => partitionOf(db.entities.webhookDelivery.get({ webhookId, id: 'any' }).params())),
    ...bench.relayed.slice(eventsBefore).map((id) => partitionOf(db.entities.webhookEvent.get({ id }).params())),
  ]);

  const receivedBefore = receiver.requests.count();
  // Tallied part by part, so that no more than a part's recorded calls are held at once.
  const commandCounts = new Map<string, number>();
  let succeeded = 0;
  const tallyCalls = (calls: readonly RecordedCall[]) => {
    for (const call of calls) commandCounts.set(call.command, (commandCounts.get(call.command) ?? 0) + 1);
    if (calls.some((call) => call.command === 'UpdateItemCommand' && setsDeliverySuccess(call.input))) succeeded++;
  };
  const attemptsThenReplays = async (part: readonly DeliveryMessage[], sampled: <T>(work: () => Promise<T>) => Promise<T>) => {
    const attempts = await sampled(() =>
      inParallel(part, options.concurrency, (message) => bench.recorder.during(() => attemptDelivery(deps, message))),
    );
    const replays = await inParallel(attempts.results, options.concurrency, (calls) => replay(client, calls, copy));
    attempts.results.forEach(tallyCalls);
    // Times only: recorded calls still referenced here would stay in this suspended frame and count as retained heap.
    return { attempts: { ms: attempts.ms, cpuMs: attempts.cpuMs }, replays: { ms: replays.ms, cpuMs: replays.cpuMs } };
  };

  // The warm-up, untimed: JIT and DynamoDB Local meet these code paths and items first here.
  const warm = options.warmupEvents * endpointIds.length;
  await attemptsThenReplays(messages.slice(0, warm), (work) => work());
  const memory = memorySampler();
  let [attemptsMs, replaysMs, attemptsCpuMs, replaysCpuMs] = [0, 0, 0, 0];
  const measured = messages.length - warm;
  const partSize = Math.ceil(measured / alternations);
  for (let start = warm; start < messages.length; start += partSize) {
    const part = messages.slice(start, start + partSize);
    const { attempts, replays } = await attemptsThenReplays(part, memory.during);
    [attemptsMs, attemptsCpuMs] = [attemptsMs + attempts.ms, attemptsCpuMs + attempts.cpuMs];
    [replaysMs, replaysCpuMs] = [replaysMs + replays.ms, replaysCpuMs + replays.cpuMs];
  }
  const received = receiver.requests.count() - receivedBefore;
  if (received !== messages.length || succeeded !== messages.length) {
    throw new Error(`of ${messages.length} deliveries, ${received} reached the receiver and ${succeeded} were recorded success`);
  }
  const byCommand = Object.fromEntries([...commandCounts].map(([command, n]) => [command, n / messages.length]));
  return {
    deliveries: measured,
    warmupDeliveries: warm,
    concurrency: options.concurrency,
    deliveriesPerSecond: measured / (attemptsMs / 1000),
    ceilingPerSecond: measured / (replaysMs / 1000),
    ratio: replaysMs / attemptsMs,
    attemptCpuMsEach: attemptsCpuMs / measured,
    replayCpuMsEach: replaysCpuMs / measured,
    dynamoDbCallsEach: Object.values(byCommand).reduce((a, b) => a + b, 0),
    dynamoDbCallsEachByCommand: byCommand,
    memory: memory.figures(),
  };
}
