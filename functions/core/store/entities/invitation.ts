import { createSchema } from 'electrodb';
import { roles } from './membership.ts';

/**
 * An invitation of a user who already has an account into another workspace. Nobody is
 * made a member of a workspace without saying yes: the membership exists only once the
 * user accepts. Invitations lapse after a week (TTL, and code that treats them as gone).
 *
 * | access pattern           | index | pk           | sk               |
 * |--------------------------|-------|--------------|------------------|
 * | invitations of a user    | table | USER#<uid>   | INVITE#<wid>     |
 */
export const invitationSchema = createSchema({
  model: { entity: 'invitation', version: '1', service: 'tenant-api' },
  attributes: {
    userId: { type: 'number', required: true },
    workspaceId: { type: 'string', required: true },
    role: { type: roles, required: true },
    invitedBy: { type: 'number', required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byUser: {
      pk: { field: 'pk', composite: ['userId'], template: 'USER#${userId}', casing: 'none' },
      sk: { field: 'sk', composite: ['workspaceId'], template: 'INVITE#${workspaceId}', casing: 'none' },
    },
  },
});
