import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * A webhook endpoint, under its environment, so that test reads and test events never meet a
 * live endpoint. Its signing secrets are sealed (webhooks/secret-box.ts) under a key outside
 * the table, so that an export or backup holds no usable secret.
 *
 * | access pattern                     | index | pk         | sk                    |
 * |------------------------------------|-------|------------|-----------------------|
 * | endpoint by id                     | table | WKS#<wid>  | WH#<env>#<id>         |
 * | endpoints of a workspace and env   | table | WKS#<wid>  | WH#<env>#             |
 */
export const webhookEndpointSchema = createSchema({
  model: { entity: 'webhookEndpoint', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    url: { type: 'string', required: true },
    /** Exact types, `resource.*` and `*` (core/events/subscriptions.ts). */
    events: { type: 'list', items: { type: 'string' }, required: true },
    /** The signing secret, sealed (webhooks/secret-box.ts): bound to this endpoint's id and to this field. */
    sealedSecret: { type: 'string', required: true },
    /** The secret before the last rotation, sealed likewise, which still signs until `previousSecretExpiresAt`. */
    sealedPreviousSecret: { type: 'string' },
    previousSecretExpiresAt: { type: 'string' },
    isActive: { type: 'boolean', required: true },
    /**
     * Whether the credential that last chose its URL or events held posts:read-content: only
     * then do its post events carry `content`. Absent (endpoints made before posts) is false.
     */
    readsContent: { type: 'boolean' },
    /** Set when deliveries disabled the endpoint (not when a client did, by PATCH). */
    disabledAt: { type: 'string' },
    /** Deliveries that ended `success`, and `failed`. */
    successCount: { type: 'number', required: true, default: 0 },
    failureCount: { type: 'number', required: true, default: 0 },
    /** Deliveries that ended `failed` since the last success: at the threshold the endpoint is disabled. */
    consecutiveFailures: { type: 'number', required: true, default: 0 },
    lastDeliveryAt: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    updatedAt: { type: 'string', required: true },
    /**
     * Epoch seconds, set when the workspace is deleted: the endpoint stays to receive the
     * workspace's last event, `workspace.deleted`, through its whole ladder, then is gone.
     */
    ttl: { type: 'number' },
  },
  indexes: {
    byWorkspace: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: { field: 'sk', composite: ['environment', 'id'], template: 'WH#${environment}#${id}', casing: 'none' },
    },
  },
});
