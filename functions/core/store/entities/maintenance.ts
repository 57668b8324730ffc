import { createSchema } from 'electrodb';

/**
 * The operator's maintenance switch: while the item exists the service answers 503
 * MAINTENANCE_MODE. Every function reads it through a cache of a few seconds
 * (operations/maintenance.ts).
 *
 * | access pattern | index | pk                    | sk    |
 * |----------------|-------|-----------------------|-------|
 * | the switch     | table | PLATFORM#maintenance  | STATE |
 */
export const maintenanceSchema = createSchema({
  model: { entity: 'maintenance', version: '1', service: 'tenant-api' },
  attributes: {
    /** When the operator switched it on (ISO 8601). */
    since: { type: 'string', required: true },
    /** What the 503's Retry-After says, in seconds. */
    retryAfter: { type: 'number', required: true },
    /** The 503's message, when the operator gave one. */
    message: { type: 'string' },
  },
  indexes: {
    bySwitch: {
      pk: { field: 'pk', composite: [], template: 'PLATFORM#maintenance', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'STATE', casing: 'none' },
    },
  },
});
