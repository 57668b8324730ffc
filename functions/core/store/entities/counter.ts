import { createSchema } from 'electrodb';

/**
 * Counters moved with an atomic ADD: the next integer id of a kind (`user`, `userToken`),
 * and the size of each listed collection (`list:<collection>`, see store/list-counts.ts),
 * moved in the same transaction as every create and delete of the collection.
 *
 * | access pattern   | index | pk              | sk      |
 * |------------------|-------|-----------------|---------|
 * | counter by name  | table | COUNTER#<name>  | COUNTER |
 */
export const counterSchema = createSchema({
  model: { entity: 'counter', version: '1', service: 'tenant-api' },
  attributes: {
    name: { type: 'string', required: true },
    value: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    byName: {
      pk: { field: 'pk', composite: ['name'], template: 'COUNTER#${name}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'COUNTER', casing: 'none' },
    },
  },
});
