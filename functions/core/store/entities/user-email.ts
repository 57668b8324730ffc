import { createSchema } from 'electrodb';

/**
 * Claims an email for one user: uniqueness is a conditional write, and login finds the user
 * by a strongly consistent read.
 *
 * | access pattern  | index | pk              | sk    |
 * |-----------------|-------|-----------------|-------|
 * | user of email   | table | EMAIL#<email>   | EMAIL |
 */
export const userEmailSchema = createSchema({
  model: { entity: 'userEmail', version: '1', service: 'tenant-api' },
  attributes: {
    email: { type: 'string', required: true },
    userId: { type: 'number', required: true },
  },
  indexes: {
    byEmail: {
      pk: { field: 'pk', composite: ['email'], template: 'EMAIL#${email}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'EMAIL', casing: 'none' },
    },
  },
});
