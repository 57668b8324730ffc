import type { BootstrapResult } from '#core/operations/bootstrap';
import type { WebhookSecretBox } from '#core/ports/webhook-secrets';
import type { Counters } from './counters.ts';
import { measureDeliveryListPageOne } from './delivery-list.ts';
import type { watchDeliverySuccesses } from './delivery-watch.ts';
import type { ListFigures } from './lists.ts';
import { startReceiver } from './receiver.ts';
import { type FanOutFigures, measureFanOut } from './webhook-fan-out.ts';
import { startWebhookBench } from './webhook-setup.ts';
import { measureDeliveryThroughput, type ThroughputFigures } from './webhook-throughput.ts';

export interface WebhookFigures {
  fanOut: Omit<FanOutFigures, 'workspace'>;
  throughput: ThroughputFigures;
  deliveryList: ListFigures;
}

export interface WebhookSettings {
  endpoints: number;
  /** Events fanned out to `endpoints` for the throughput phase, after `warmupEvents` whose deliveries are not timed. */
  events: number;
  warmupEvents: number;
  concurrency: number;
  listSizes: [number, number];
  listRequests: number;
}

/**
 * The webhook figures (fan-out, the worker's throughput and memory, the deliveries list)
 * against a fast receiver on http://127.0.0.1, which needs WEBHOOK_ALLOW_INSECURE=1.
 */
export async function measureWebhooks(
  store: { AWS_REGION: string; DYNAMODB_ENDPOINT: string; TABLE_NAME: string },
  runner: { baseUrl: string; successes: ReturnType<typeof watchDeliverySuccesses>['successes']; webhookSecrets: WebhookSecretBox },
  bootstrap: BootstrapResult,
  counters: Counters,
  settings: WebhookSettings,
  step: (what: string) => void,
): Promise<WebhookFigures> {
  const receiver = await startReceiver();
  const bench = await startWebhookBench(store, bootstrap.userId, runner.webhookSecrets);
  try {
    step(`webhooks: one workspace.updated (PATCH through the runner) fanned out to ${settings.endpoints} endpoints on a local receiver`);
    const { workspace, ...fanOut } = await measureFanOut(bench, runner, bootstrap, counters, receiver, settings.endpoints);
    const { data: endpoints } = await bench.deps.db.entities.webhookEndpoint.query.byWorkspace(bench.owner).go({ pages: 'all' });

    const [deliveries, warmup] = [settings.events * endpoints.length, settings.warmupEvents * endpoints.length];
    step(
      `webhooks: ${warmup} + ${deliveries.toLocaleString('en-US')} deliveries by attemptDelivery, ${settings.concurrency} at a time, against their DynamoDB calls replayed`,
    );
    const throughput = await measureDeliveryThroughput(
      bench,
      receiver,
      endpoints.map((e) => e.id),
      { events: settings.events, warmupEvents: settings.warmupEvents, concurrency: settings.concurrency, workspace },
    );

    step(
      `webhooks: page one of GET /webhooks/{id}/deliveries at ${settings.listSizes.map((n) => n.toLocaleString('en-US')).join(' and ')} deliveries, ${settings.listRequests} requests each`,
    );
    const deliveryList = await measureDeliveryListPageOne(bench, runner.baseUrl, bootstrap, counters, {
      sizes: settings.listSizes,
      requests: settings.listRequests,
      receiverUrl: receiver.url,
    });
    if (receiver.unsigned()) throw new Error(`the receiver got ${receiver.unsigned()} requests that were not signed POSTs`);
    return { fanOut, throughput, deliveryList };
  } finally {
    bench.deps.close();
    await receiver.stop();
  }
}
