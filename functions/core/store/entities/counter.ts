import { createSchema } from 'electrodb';

/**
 * Monotonic counters for integer ids, advanced with an atomic ADD.
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
