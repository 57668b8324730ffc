import { createSchema } from 'electrodb';
import { tierNames } from '../../tiers.ts';

/**
 * A person who acts through credentials. Integer ids, as the spec's User.id.
 *
 * | access pattern       | index | pk             | sk     |
 * |----------------------|-------|----------------|--------|
 * | user by id           | table | USER#<id>      | USER   |
 * | user by email        | gsi1  | EMAIL#<email>  | USER   |
 */
export const userSchema = createSchema({
  model: { entity: 'user', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'number', required: true },
    name: { type: 'string', required: true },
    email: { type: 'string', required: true },
    tier: { type: tierNames, required: true },
    passwordHash: { type: 'string' },
    emailVerifiedAt: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'USER#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'USER', casing: 'none' },
    },
    byEmail: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['email'], template: 'EMAIL#${email}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: [], template: 'USER', casing: 'none' },
    },
  },
});
