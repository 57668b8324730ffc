import { createSchema } from 'electrodb';
import { prunableAttributes, prunableIndex } from './prunable.ts';

/**
 * A login session: the cookie holds a random id, the table only its SHA-256 digest, with the
 * XSRF token unsafe requests must echo.
 *
 * | access pattern     | index | pk                  | sk            |
 * |--------------------|-------|---------------------|---------------|
 * | session by digest  | table | SESSION#<digest>    | SESSION       |
 * | sessions of a user | gsi1  | SESSIONS#<userId>   | <digest>      |
 * | ended (pruning)    | gsi2  | PRUNE#session       | <prunableAt>  |
 */
export const sessionSchema = createSchema({
  model: { entity: 'session', version: '1', service: 'tenant-api' },
  attributes: {
    digest: { type: 'string', required: true },
    userId: { type: 'number', required: true },
    workspaceId: { type: 'string', required: true },
    xsrfToken: { type: 'string', required: true },
    expiresAt: { type: 'string', required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
    ttl: { type: 'number', required: true },
    ...prunableAttributes('session', { required: true }),
  },
  indexes: {
    byDigest: {
      pk: { field: 'pk', composite: ['digest'], template: 'SESSION#${digest}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'SESSION', casing: 'none' },
    },
    byUser: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['userId'], template: 'SESSIONS#${userId}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['digest'], template: '${digest}', casing: 'none' },
    },
    byPrunableAt: prunableIndex,
  },
});
