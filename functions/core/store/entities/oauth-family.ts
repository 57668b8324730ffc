import { createSchema } from 'electrodb';

/**
 * The mark of a revoked token family, written before its tokens are deleted: a refresh stores
 * its new pair only while no mark exists, so that a refresh racing the revocation cannot leave
 * a working pair.
 *
 * | access pattern        | index | pk                      | sk           |
 * |-----------------------|-------|-------------------------|--------------|
 * | mark by family        | table | OAUTHFAMILY#<familyId>  | OAUTHFAMILY  |
 */
export const oauthFamilySchema = createSchema({
  model: { entity: 'oauthFamily', version: '1', service: 'tenant-api' },
  attributes: {
    familyId: { type: 'string', required: true },
    revokedAt: { type: 'string', required: true },
    /** Epoch seconds. */
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byFamily: {
      pk: { field: 'pk', composite: ['familyId'], template: 'OAUTHFAMILY#${familyId}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'OAUTHFAMILY', casing: 'none' },
    },
  },
});
