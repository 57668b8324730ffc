import { createSchema } from 'electrodb';

/**
 * What a namespace's owner has used of one feature in one period (a month, or `total`), moved
 * only by atomic ADDs, conditioned on the limit where it must hold. api_calls is counted by the
 * usage meter instead.
 *
 * | access pattern              | index | pk                                           | sk                  |
 * |-----------------------------|-------|----------------------------------------------|---------------------|
 * | one feature in one period   | table | USAGE#<ownerType>#<ownerId>#<environment>    | <feature>#<period>  |
 * | all of an owner's features  | table | USAGE#<ownerType>#<ownerId>#<environment>    | (Query)             |
 */
export const usageCounterSchema = createSchema({
  model: { entity: 'usageCounter', version: '1', service: 'tenant-api' },
  attributes: {
    ownerType: { type: ['User', 'Workspace'] as const, required: true },
    ownerId: { type: 'string', required: true },
    environment: { type: ['live', 'test'] as const, required: true },
    feature: { type: 'string', required: true },
    period: { type: 'string', required: true },
    used: { type: 'number', required: true, default: 0 },
    /** Monthly counters only: removed by TTL a year after their month; never read past it. */
    ttl: { type: 'number' },
  },
  indexes: {
    byOwner: {
      pk: {
        field: 'pk',
        composite: ['ownerType', 'ownerId', 'environment'],
        template: 'USAGE#${ownerType}#${ownerId}#${environment}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['feature', 'period'], template: '${feature}#${period}', casing: 'none' },
    },
  },
});
