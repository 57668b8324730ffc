import { createSchema } from 'electrodb';

/** What one package adds to a namespace's limits, per feature (entitlements/features.ts). */
const packageEntitlements = {
  api_calls: { type: 'number' },
  posts: { type: 'number' },
  storage: { type: 'number' },
  api_keys: { type: 'number' },
  webhooks: { type: 'number' },
  members: { type: 'number' },
  seo_reports: { type: 'number' },
  mcp_calls: { type: 'number' },
  workspaces: { type: 'number' },
} as const;

/**
 * A namespace, where entitlements are counted. A workspace's default one has the workspace's
 * ULID behind `ns_`, so that the authorizer reads it beside the workspace without a lookup; its
 * few packages live on it.
 *
 * | access pattern         | index | pk                             | sk        |
 * |------------------------|-------|--------------------------------|-----------|
 * | namespace by id        | table | NS#<id>                        | NS        |
 * | namespaces of an owner | gsi1  | NSOWNER#<ownerType>#<ownerId>  | NS#<id>   |
 */
export const namespaceSchema = createSchema({
  model: { entity: 'namespace', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    uuid: { type: 'string', required: true, readOnly: true },
    name: { type: 'string', required: true },
    slug: { type: 'string', required: true },
    ownerType: { type: ['User', 'Workspace'] as const, required: true, readOnly: true },
    /** The user's integer id as a string, or the workspace's id. */
    ownerId: { type: 'string', required: true, readOnly: true },
    workspaceId: { type: 'string' },
    isDefault: { type: 'boolean', required: true },
    isActive: { type: 'boolean', required: true, default: true },
    packages: {
      type: 'list',
      required: true,
      default: () => [],
      items: {
        type: 'map',
        properties: {
          id: { type: 'string', required: true },
          name: { type: 'string', required: true },
          entitlements: { type: 'map', required: true, properties: packageEntitlements },
          /** Absent: never expires. An expired package counts as absent wherever it is read. */
          expiresAt: { type: 'string' },
          grantedAt: { type: 'string', required: true },
        },
      },
    },
    createdAt: { type: 'string', required: true, readOnly: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'NS#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'NS', casing: 'none' },
    },
    byOwner: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['ownerType', 'ownerId'], template: 'NSOWNER#${ownerType}#${ownerId}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['id'], template: 'NS#${id}', casing: 'none' },
    },
  },
});
