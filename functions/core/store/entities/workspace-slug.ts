import { createSchema } from 'electrodb';

/**
 * Claims a slug for its owner, so that "unique per owner" is a conditional write rather
 * than a read-then-write race.
 *
 * | access pattern          | index | pk            | sk           |
 * |-------------------------|-------|---------------|--------------|
 * | slugs of an owner       | table | OWNER#<uid>   | SLUG#<slug>  |
 */
export const workspaceSlugSchema = createSchema({
  model: { entity: 'workspaceSlug', version: '1', service: 'tenant-api' },
  attributes: {
    ownerId: { type: 'number', required: true },
    slug: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
  },
  indexes: {
    byOwner: {
      pk: { field: 'pk', composite: ['ownerId'], template: 'OWNER#${ownerId}', casing: 'none' },
      sk: { field: 'sk', composite: ['slug'], template: 'SLUG#${slug}', casing: 'none' },
    },
  },
});
