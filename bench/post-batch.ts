import { setTimeout as sleep } from 'node:timers/promises';
import type { OwnedDeps } from '#core/adapters/create-deps';
import type { BootstrapResult } from '#core/operations/bootstrap';
import { createWorkspace } from '#core/workspaces/workspaces';
import type { Counters } from './counters.ts';
import { expectStatus, send } from './http.ts';
import { postText } from './post-texts.ts';
import { type Latency, latencyOf, timed } from './stats.ts';

export interface BatchFigures {
  operations: number;
  /** One sample per batch of `operations` creates. */
  batch: Latency;
  /** One sample per single POST /posts. */
  single: Latency;
  /** One sample per `operations` single POST /posts in a row: what the batch replaces. */
  singlesInARow: Latency;
  /** DynamoDB calls per created post, each post's event fan-out included, by command. */
  batchCallsEach: Record<string, number>;
  singleCallsEach: Record<string, number>;
}

/**
 * Waits until the runner has sent no DynamoDB call for a while: each create's event is fanned
 * out after its answer (lib/local/webhooks), and belongs to the create's cost all the same.
 */
async function settled(counters: Counters): Promise<void> {
  for (let last = -1; counters.calls.total() !== last; await sleep(250)) last = counters.calls.total();
}

/** Counts the calls of `work` and of what it leaves running, added into `into`. */
async function countInto(counters: Counters, into: Map<string, number>, work: () => Promise<void>): Promise<void> {
  await settled(counters);
  const before = counters.calls.snapshot();
  await work();
  await settled(counters);
  for (const [name, n] of Object.entries(counters.calls.snapshot())) into.set(name, (into.get(name) ?? 0) + n - (before[name] ?? 0));
}

const perPost = (calls: Map<string, number>, posts: number) =>
  Object.fromEntries([...calls].filter(([, n]) => n).map(([name, n]) => [name, n / posts]));

/**
 * A batch of post creates against as many single `POST /posts`, in turns, each in a fresh
 * enterprise workspace, with texts of their own so that no two contend for a slug.
 */
export async function measurePostBatch(
  deps: OwnedDeps,
  baseUrl: string,
  bootstrap: BootstrapResult,
  counters: Counters,
  options: { runs: number; operations: number },
): Promise<BatchFigures> {
  const { runs, operations } = options;
  const [batchMs, singleMs, rowMs] = [[], [], []] as number[][];
  const [batchCalls, singleCalls] = [new Map<string, number>(), new Map<string, number>()];
  const headersFor = async (name: string) => {
    const { id } = await createWorkspace(deps, bootstrap.userId, { name, tier: 'enterprise' });
    return { Authorization: `Bearer ${bootstrap.apiKey}`, 'X-Workspace-ID': id };
  };
  const post = (n: number) => ({ ...postText(1_000_000 + n), status: 'published' });
  for (let run = 0; run < runs; run++) {
    const first = run * 2 * operations;
    const batchHeaders = await headersFor(`bench batch ${run}`);
    const body = { operations: Array.from({ length: operations }, (_, i) => ({ action: 'create', data: post(first + i) })) };
    await countInto(counters, batchCalls, async () => {
      const { value: answer, ms } = await timed(() => send('POST', `${baseUrl}/resources/batch`, { body, headers: batchHeaders }));
      const { meta } = JSON.parse(expectStatus(answer, 200, 'POST /resources/batch').body) as { meta: { succeeded: number } };
      if (meta.succeeded !== operations) throw new Error(`a batch of ${operations} creates answered ${answer.body.slice(0, 300)}`);
      batchMs.push(ms);
    });
    const singleHeaders = await headersFor(`bench singles ${run}`);
    await countInto(counters, singleCalls, async () => {
      const started = performance.now();
      for (let i = 0; i < operations; i++) {
        const options = { body: post(first + operations + i), headers: singleHeaders };
        const { value: answer, ms } = await timed(() => send('POST', `${baseUrl}/posts`, options));
        expectStatus(answer, 201, 'POST /posts');
        singleMs.push(ms);
      }
      rowMs.push(performance.now() - started);
    });
  }
  const posts = runs * operations;
  return {
    operations,
    batch: latencyOf(batchMs),
    single: latencyOf(singleMs),
    singlesInARow: latencyOf(rowMs),
    batchCallsEach: perPost(batchCalls, posts),
    singleCallsEach: perPost(singleCalls, posts),
  };
}
