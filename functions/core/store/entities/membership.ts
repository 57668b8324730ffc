import { createSchema } from 'electrodb';
import { roles } from '../roles.ts';
import { idPadding } from './id-padding.ts';

/**
 * A user's place in a workspace. User ids are zero-padded to ten digits in keys, so that
 * key order is id order (user 10 after user 9): both lists are served in key order.
 *
 * | access pattern                      | index | pk            | sk              |
 * |-------------------------------------|-------|---------------|-----------------|
 * | members of a workspace, by user id  | table | WKS#<wid>     | MEMBER#<uid>    |
 * | workspaces of a user, by wks id     | gsi1  | USER#<uid>    | WKS#<wid>       |
 */
export const membershipSchema = createSchema({
  model: { entity: 'membership', version: '1', service: 'tenant-api' },
  attributes: {
    workspaceId: { type: 'string', required: true },
    userId: { type: 'number', required: true, padding: idPadding },
    role: { type: roles, required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
  },
  indexes: {
    byWorkspace: {
      pk: { field: 'pk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
      sk: { field: 'sk', composite: ['userId'], template: 'MEMBER#${userId}', casing: 'none' },
    },
    byUser: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['userId'], template: 'USER#${userId}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['workspaceId'], template: 'WKS#${workspaceId}', casing: 'none' },
    },
  },
});
