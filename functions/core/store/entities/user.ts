import { createSchema } from 'electrodb';
import { tierNames } from '#core/platform/tiers';

/**
 * A person who acts through credentials, with an integer id as the spec's User.id; found by
 * email through its email claim (user-email.ts).
 *
 * | access pattern       | index | pk             | sk     |
 * |----------------------|-------|----------------|--------|
 * | user by id           | table | USER#<id>      | USER   |
 */
export const userSchema = createSchema({
  model: { entity: 'user', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'number', required: true },
    name: { type: 'string', required: true },
    email: { type: 'string', required: true },
    tier: { type: tierNames, required: true },
    passwordHash: { type: 'string' },
    /** Operates the platform (suspends workspaces, registers OAuth clients); not a tenant role. */
    platformAdmin: { type: 'boolean', required: true, default: false },
    /** Set when a link mailed to `email` was opened (or an operator made the account). */
    emailVerifiedAt: { type: 'string' },
    /** The workspace made with the account (registration, admin CLI, bootstrap): where the user's own events go. */
    personalWorkspaceId: { type: 'string' },
    /**
     * The digest of the one email-change link that may still confirm: a newer request
     * replaces it, and a password change or reset removes it, so the person can stop a
     * change someone else asked for.
     */
    pendingEmailChange: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'USER#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'USER', casing: 'none' },
    },
  },
});
