import { createSchema } from 'electrodb';
import { invitedRoles } from '../roles.ts';
import { prunableAttributes, prunableIndex } from './prunable.ts';

/**
 * An invitation to an email with no account yet, which becomes an invitation of the user
 * (invitation.ts) once they register and verify it. Keyed by the email's SHA-256 digest, so
 * that the table holds no address of someone who never signed up.
 *
 * | access pattern                   | index | pk                          | sk             |
 * |----------------------------------|-------|-----------------------------|----------------|
 * | pending invitations of an email  | table | PENDING_INVITES#<digest>    | INVITE#<wid>   |
 * | into a workspace (its deletion)  | gsi1  | PENDING_INTO#<wid>          | <digest>       |
 * | lapsed (pruning)                 | gsi2  | PRUNE#pendingInvitation     | <prunableAt>   |
 */
export const pendingInvitationSchema = createSchema({
  model: { entity: 'pendingInvitation', version: '1', service: 'tenant-api' },
  attributes: {
    emailDigest: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    role: { type: invitedRoles, required: true },
    invitedBy: { type: 'number', required: true },
    createdAt: { type: 'string', required: true },
    ttl: { type: 'number', required: true },
    ...prunableAttributes('pendingInvitation', { required: true }),
  },
  indexes: {
    byEmail: {
      pk: { field: 'pk', composite: ['emailDigest'], template: 'PENDING_INVITES#${emailDigest}', casing: 'none' },
      sk: { field: 'sk', composite: ['workspaceId'], template: 'INVITE#${workspaceId}', casing: 'none' },
    },
    byWorkspace: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['workspaceId'], template: 'PENDING_INTO#${workspaceId}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['emailDigest'], template: '${emailDigest}', casing: 'none' },
    },
    byPrunableAt: prunableIndex,
  },
});
