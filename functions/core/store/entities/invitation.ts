import { createSchema } from 'electrodb';
import { invitedRoles } from '../roles.ts';
import { prunableAttributes, prunableIndex } from './prunable.ts';

/**
 * An invitation of a user who has an account into another workspace: the membership exists only
 * once they accept, so that nobody is made a member without saying yes.
 *
 * | access pattern                  | index | pk                 | sk             |
 * |---------------------------------|-------|--------------------|----------------|
 * | invitations of a user, by wks   | table | USER#<uid>         | INVITE#<wid>   |
 * | invitations into a workspace    | gsi1  | INVITES#<wid>      | USER#<uid>     |
 * | lapsed (pruning)                | gsi2  | PRUNE#invitation   | <prunableAt>   |
 */
export const invitationSchema = createSchema({
  model: { entity: 'invitation', version: '1', service: 'tenant-api' },
  attributes: {
    userId: { type: 'number', required: true },
    workspaceId: { type: 'string', required: true },
    role: { type: invitedRoles, required: true },
    invitedBy: { type: 'number', required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
    ttl: { type: 'number', required: true },
    ...prunableAttributes('invitation', { required: true }),
  },
  indexes: {
    byUser: {
      pk: { field: 'pk', composite: ['userId'], template: 'USER#${userId}', casing: 'none' },
      sk: { field: 'sk', composite: ['workspaceId'], template: 'INVITE#${workspaceId}', casing: 'none' },
    },
    byWorkspace: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['workspaceId'], template: 'INVITES#${workspaceId}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['userId'], template: 'USER#${userId}', casing: 'none' },
    },
    byPrunableAt: prunableIndex,
  },
});
