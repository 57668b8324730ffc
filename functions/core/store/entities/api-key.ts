import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';
import { tierNames } from '#core/platform/tiers';
import { prunableAttributes, prunableIndex } from './prunable.ts';

/**
 * An API key, kept only as its bcrypt hash. The authorizer finds a key it has not seen by its
 * clear prefix (gsi1) and re-reads it by primary key, strongly consistent, on every request, so
 * a revocation (a delete) takes effect at once.
 *
 * | access pattern          | index | pk                  | sk            |
 * |-------------------------|-------|---------------------|---------------|
 * | key by id               | table | WKS#<wid>           | KEY#<id>      |
 * | keys of a workspace     | table | WKS#<wid>           | KEY#          |
 * | key by prefix           | gsi1  | KEYPREFIX#<prefix>  | KEY           |
 * | finished keys (pruning) | gsi2  | PRUNE#apiKey        | <prunableAt>  |
 */
export const apiKeySchema = createSchema({
  model: { entity: 'apiKey', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    userId: { type: 'number', required: true },
    name: { type: 'string', required: true },
    prefix: { type: 'string', required: true },
    keyHash: { type: 'string', required: true },
    scopes: { type: 'list', items: { type: 'string' }, required: true },
    rateLimitTier: { type: tierNames, required: true },
    environment: { type: environments, required: true },
    expiresAt: { type: 'string' },
    /** IPs and CIDR ranges (v4 and v6) the key may be used from; none means anywhere. */
    allowedIps: { type: 'list', items: { type: 'string' } },
    lastUsedAt: { type: 'string' },
    /** Set on the old key when it is rotated: it keeps working until then. */
    graceEndsAt: { type: 'string' },
    rotatedToId: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    /** Epoch seconds: DynamoDB's TTL removes a finished key eventually; code treats it as gone at once. */
    ttl: { type: 'number' },
    ...prunableAttributes('apiKey'),
  },
  indexes: {
    byWorkspace: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: { field: 'sk', composite: ['id'], template: 'KEY#${id}', casing: 'none' },
    },
    byPrefix: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['prefix'], template: 'KEYPREFIX#${prefix}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: [], template: 'KEY', casing: 'none' },
    },
    byPrunableAt: prunableIndex,
  },
});
