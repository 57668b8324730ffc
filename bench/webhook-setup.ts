import { createDeps, type OwnedDeps } from '#core/adapters/create-deps';
import type { DeliveryMessage } from '#core/ports/webhook-delivery';
import type { WebhookSecretBox } from '#core/ports/webhook-secrets';
import type { EndpointManager } from '#core/webhooks/endpoint-access';
import { createWebhookEndpoint } from '#core/webhooks/endpoints';
import { fanOut } from '#core/webhooks/fan-out';
import { createWorkspace } from '#core/workspaces/workspaces';
import { recordDynamoDbCalls } from './call-recorder.ts';

/**
 * The bench's own webhook process, beside the local runner and on its table: events it
 * emits are fanned out at once, in this call, and the deliveries' messages are collected
 * instead of being queued, so that the bench decides when and how fast the worker runs.
 */
export interface WebhookBench {
  deps: OwnedDeps;
  /** Messages the fan-out "sent"; the bench empties it as it takes them. */
  queued: DeliveryMessage[];
  /** Ids of the events relayed to fan-out, in order. */
  relayed: string[];
  recorder: ReturnType<typeof recordDynamoDbCalls>;
  /** A workspace of the bootstrap user, on the enterprise tier (1,000 endpoints), live. */
  owner: EndpointManager;
}

/** `webhookSecrets`: the local runner's, whose worker signs what the bench's endpoints are sent. */
export async function startWebhookBench(
  store: { AWS_REGION: string; DYNAMODB_ENDPOINT: string; TABLE_NAME: string },
  userId: number,
  webhookSecrets: WebhookSecretBox,
): Promise<WebhookBench> {
  const recorder = recordDynamoDbCalls();
  const queued: DeliveryMessage[] = [];
  const relayed: string[] = [];
  const deps: OwnedDeps = createDeps(store, {
    documentClient: recorder.attach,
    webhookSecrets,
    eventRelay: {
      relay: async (ids) => {
        relayed.push(...ids);
        await fanOut(deps, ids);
      },
    },
    deliveryQueue: { send: async (messages) => void queued.push(...messages) },
    retryScheduler: {
      schedule: async () => {
        throw new Error('the bench schedules no retry: its receiver answers 200');
      },
    },
  });
  const { id: workspaceId } = await createWorkspace(deps, userId, { name: 'bench webhooks', tier: 'enterprise' });
  // The workspace's owner, holding every scope: endpoints for any event.
  return { deps, queued, relayed, recorder, owner: { workspaceId, environment: 'live', actor: { userId, scopes: ['*'] } } };
}

/** `count` endpoints of the bench's workspace, at `urlOf(i)`, subscribed to `events`; their ids. */
export async function addEndpoints(bench: WebhookBench, count: number, urlOf: (i: number) => string, events: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await createWebhookEndpoint(bench.deps, bench.owner, { url: urlOf(i), events })).id);
  return ids;
}
