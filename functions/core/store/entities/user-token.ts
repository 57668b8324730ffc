import { createSchema } from 'electrodb';
import { idPadding } from './id-padding.ts';
import { prunableAttributes, prunableIndex } from './prunable.ts';

/**
 * A personal access token (`<id>|<secret>`), kept only as the SHA-256 digest of its secret;
 * `workspaceId` is where it acts unless the client names another.
 *
 * | access pattern        | index | pk               | sk            |
 * |-----------------------|-------|------------------|---------------|
 * | token by id           | table | TOKEN#<id>       | TOKEN         |
 * | tokens of a user      | gsi1  | USER#<uid>       | TOKEN#<id>    |
 * | finished (pruning)    | gsi2  | PRUNE#userToken  | <prunableAt>  |
 */
export const userTokenSchema = createSchema({
  model: { entity: 'userToken', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'number', required: true, padding: idPadding },
    userId: { type: 'number', required: true },
    workspaceId: { type: 'string', required: true },
    name: { type: 'string', required: true },
    abilities: { type: 'list', items: { type: 'string' }, required: true },
    secretDigest: { type: 'string', required: true },
    expiresAt: { type: 'string' },
    lastUsedAt: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    ttl: { type: 'number' },
    ...prunableAttributes('userToken'),
  },
  indexes: {
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'TOKEN#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'TOKEN', casing: 'none' },
    },
    byUser: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['userId'], template: 'USER#${userId}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['id'], template: 'TOKEN#${id}', casing: 'none' },
    },
    byPrunableAt: prunableIndex,
  },
});
