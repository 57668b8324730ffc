import { createSchema } from 'electrodb';

/**
 * The mark of a revoked token family (every token descended from one authorization). It is
 * written before the family's tokens are deleted, and a refresh stores its new pair only
 * while no mark exists, so a refresh racing the revocation cannot leave a working pair.
 * Kept as long as any refresh token of the family could live.
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
