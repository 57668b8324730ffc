import type * as z from 'zod/mini';
import { isEventType } from '#core/events/event-types';
import type { EventOrigin } from '#core/events/outbox';
import { subscribes } from '#core/events/subscriptions';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { WebhookEndpointItem } from '#core/store/items';
import type { webhookEndpoint } from './endpoint-schemas.ts';

/**
 * Whose endpoints a request acts on: its workspace's, in the acting credential's
 * environment (a test key sees and changes only test endpoints). It is also where their
 * events belong, and what the `webhooks` limit counts in.
 */
export type EndpointOwner = EventOrigin;

/** An endpoint's key: its workspace, environment and id. */
export const endpointKey = (item: Pick<WebhookEndpointItem, 'workspaceId' | 'environment' | 'id'>) => ({
  workspaceId: item.workspaceId,
  environment: item.environment,
  id: item.id,
});

/** An endpoint of a deleted workspace whose time is up: absent, whatever DynamoDB's TTL has removed yet. */
export const isRetired = (item: Pick<WebhookEndpointItem, 'ttl'>, now: Date): boolean =>
  item.ttl !== undefined && item.ttl <= now.getTime() / 1000;

/**
 * Whether the endpoint still subscribes to `eventType`: a delivery is sent, by the worker or
 * a manual retry, only while it does. Its subscription may have narrowed since the fan-out,
 * and its URL moved with the read scopes of what is left, so an event it no longer
 * subscribes to could otherwise reach a receiver whose credential may not read it.
 */
export const subscribesTo = (endpoint: Pick<WebhookEndpointItem, 'events'>, eventType: string): boolean =>
  isEventType(eventType) && subscribes(endpoint.events, eventType);

/**
 * An endpoint as the API returns it, and as the `data` of its `webhook.*` events: never
 * its secret, which only the create and rotate-secret responses show.
 */
export function webhookEndpointView(item: WebhookEndpointItem): z.output<typeof webhookEndpoint> {
  return {
    id: item.id,
    url: item.url,
    events: item.events,
    is_active: item.isActive,
    success_count: item.successCount,
    failure_count: item.failureCount,
    consecutive_failures: item.consecutiveFailures,
    last_delivery_at: item.lastDeliveryAt ?? null,
    disabled_at: item.disabledAt ?? null,
    environment: item.environment,
    workspace_id: item.workspaceId,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
  };
}

/** The owner's endpoint, or 404 (another workspace's or environment's is as absent as a deleted one). */
export async function loadWebhookEndpoint(deps: Deps, owner: EndpointOwner, id: string): Promise<WebhookEndpointItem> {
  const { data } = await deps.db.entities.webhookEndpoint.get(endpointKey({ ...owner, id })).go({ ...hotPath, consistent: true });
  if (!data) throw new NotFound('webhook', id);
  return data;
}
