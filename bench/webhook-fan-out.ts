import type { BootstrapResult } from '#core/operations/bootstrap';
import type { Counters } from './counters.ts';
import type { watchDeliverySuccesses } from './delivery-watch.ts';
import { expectStatus, send } from './http.ts';
import type { Receiver } from './receiver.ts';
import { addEndpoints, type WebhookBench } from './webhook-setup.ts';

export interface FanOutFigures {
  endpoints: number;
  /** The PATCH's own answer time: the outbox commits the event with the change. */
  mutationMs: number;
  /** From sending the mutation until the receiver had every delivery. */
  msToReceived: number;
  /** ... until DynamoDB had acknowledged every delivery's `success`. */
  msToRecorded: number;
  /** The runner's DynamoDB calls from the mutation until every endpoint counted its success. */
  dynamoDbCalls: number;
  dynamoDbCallsByCommand: Record<string, number>;
  /** The workspace as the PATCH answered it: the `data` of the throughput phase's events. */
  workspace: object;
}

/** Waits until `check` holds, looking every `everyMs`. */
async function until(check: () => Promise<boolean>, what: string, everyMs = 50, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs / 1000} s`);
    await new Promise((done) => setTimeout(done, everyMs));
  }
}

/**
 * One real mutation, `PATCH /workspaces/{id}` over HTTP through the local runner, whose
 * `workspace.updated` event `endpoints` endpoints subscribe to: the runner's own relay,
 * fan-out and in-process worker deliver it to the receiver.
 */
export async function measureFanOut(
  bench: WebhookBench,
  runner: { baseUrl: string; successes: ReturnType<typeof watchDeliverySuccesses>['successes'] },
  bootstrap: BootstrapResult,
  counters: Counters,
  receiver: Receiver,
  endpoints: number,
): Promise<FanOutFigures> {
  const { workspaceId } = bench.owner;
  await addEndpoints(bench, endpoints, (i) => `${receiver.url}/fan-out/${i}`, ['workspace.updated']);
  const [callsBefore, receivedBefore, recordedBefore] = [counters.calls.snapshot(), receiver.requests.count(), runner.successes.count()];

  const started = performance.now();
  const answer = await send('PATCH', `${runner.baseUrl}/workspaces/${workspaceId}`, {
    body: { name: 'bench webhooks, renamed' },
    headers: { Authorization: `Bearer ${bootstrap.apiKey}`, 'X-Workspace-ID': workspaceId },
  });
  const mutationMs = performance.now() - started;
  expectStatus(answer, 200, 'PATCH /workspaces/{id}');
  const received = await receiver.requests.waitFor(receivedBefore + endpoints, 'deliveries received');
  const recorded = await runner.successes.waitFor(recordedBefore + endpoints, 'deliveries recorded success');

  // The endpoints' counters move last: then the runner's work for this event is done.
  const { webhookEndpoint } = bench.deps.db.entities;
  await until(async () => {
    const { data } = await webhookEndpoint.query.byWorkspace(bench.owner).go({ pages: 'all' });
    return data.length === endpoints && data.every((endpoint) => endpoint.successCount === 1);
  }, 'every endpoint counting its success');
  if (receiver.requests.count() !== receivedBefore + endpoints)
    throw new Error(`the receiver got ${receiver.requests.count() - receivedBefore} deliveries, not ${endpoints}`);

  const byCommand = Object.fromEntries(
    Object.entries(counters.calls.snapshot())
      .map(([name, n]) => [name, n - (callsBefore[name] ?? 0)] as const)
      .filter(([, n]) => n),
  );
  return {
    endpoints,
    mutationMs,
    msToReceived: received - started,
    msToRecorded: recorded - started,
    dynamoDbCalls: Object.values(byCommand).reduce((a, b) => a + b, 0),
    dynamoDbCallsByCommand: byCommand,
    workspace: (JSON.parse(answer.body) as { data: object }).data,
  };
}
