import { createSchema } from 'electrodb';
import { tierNames } from '#core/platform/tiers';

/**
 * A tenant. Its members, slug claim and API keys live in the same partition, so deleting
 * a workspace is one Query away from everything it owns.
 *
 * | access pattern                          | index | pk                     | sk             |
 * |-----------------------------------------|-------|------------------------|----------------|
 * | workspace by id                         | table | WKS#<id>               | WKS            |
 * | workspaces sharing their tier's key     | gsi2  | SHARING#gatewayKey     | <sharingSince> |
 *
 * gsi2 holds only the workspaces without an API Gateway key of their own, oldest first, for the
 * reconciler to give keys to when the key budget has room.
 */
export const workspaceSchema = createSchema({
  model: { entity: 'workspace', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    slug: { type: 'string', required: true },
    tier: { type: tierNames, required: true },
    ownerId: { type: 'number', required: true },
    settings: {
      type: 'map',
      required: true,
      properties: {
        timezone: { type: 'string', required: true },
        locale: { type: 'string', required: true },
        /** Absent until first set: the defaults of core/pixel/pixel-settings.ts. Its domains have pixelSite claims. */
        pixel: {
          type: 'map',
          properties: {
            enabled: { type: 'boolean', required: true },
            features: {
              type: 'map',
              required: true,
              properties: {
                pageviews: { type: 'boolean', required: true },
                events: { type: 'boolean', required: true },
                sessions: { type: 'boolean', required: true },
              },
            },
            sampleRate: { type: 'number', required: true },
            domains: { type: 'list', required: true, items: { type: 'string' } },
            testDomains: { type: 'list', required: true, items: { type: 'string' } },
          },
        },
      },
    },
    /** Set while the platform has suspended the workspace: every request in it answers 403. */
    suspendedAt: { type: 'string' },
    suspendedReason: { type: 'string' },
    /** Set while a platform admin has marked the workspace unpaid: requests in it answer 402, but for those that let a tenant settle or leave. */
    unpaidAt: { type: 'string' },
    /** Its own API Gateway key, in its tier's usage plan; absent, it shares its tier's key (core/ports/gateway-keys.ts). */
    gatewayKey: {
      type: 'map',
      properties: {
        id: { type: 'string', required: true },
        value: { type: 'string', required: true },
      },
    },
    /**
     * Set when a delete begins, before anything of the workspace goes: from then on no
     * credential acts in it, and whatever is made in it undoes itself (tenancy/workspace-open.ts),
     * so that nothing outlives the delete.
     */
    deletingAt: { type: 'string' },
    /** Set while it has no key of its own: since when it shares its tier's. */
    sharingSince: { type: 'string' },
    sharingBucket: {
      type: 'string',
      hidden: true,
      watch: ['sharingSince'],
      set: (_: unknown, item: { sharingSince?: string }) => (item.sharingSince === undefined ? undefined : 'gatewayKey'),
    },
    createdAt: { type: 'string', required: true, readOnly: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'WKS#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'WKS', casing: 'none' },
    },
    bySharing: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['sharingBucket'], template: 'SHARING#${sharingBucket}', casing: 'none' },
      sk: { field: 'gsi2sk', composite: ['sharingSince'], template: '${sharingSince}', casing: 'none' },
    },
  },
});
