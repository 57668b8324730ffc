import type { EntityItem } from 'electrodb';
import type { Database } from '../store/database.ts';

export type WebhookEndpointItem = EntityItem<Database['entities']['webhookEndpoint']>;

/** An endpoint's key: its workspace, environment and id. */
export const endpointKey = (item: Pick<WebhookEndpointItem, 'workspaceId' | 'environment' | 'id'>) => ({
  workspaceId: item.workspaceId,
  environment: item.environment,
  id: item.id,
});

/** An endpoint of a deleted workspace whose time is up: absent, whatever DynamoDB's TTL has removed yet. */
export const isRetired = (item: Pick<WebhookEndpointItem, 'ttl'>, now: Date): boolean => item.ttl !== undefined && item.ttl <= now.getTime() / 1000;

/**
 * An endpoint as the API returns it, and as the `data` of its `webhook.*` events: never
 * its secret, which only the create and rotate-secret responses show.
 */
export function webhookEndpointView(item: WebhookEndpointItem) {
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

export type WebhookEndpointView = ReturnType<typeof webhookEndpointView>;
