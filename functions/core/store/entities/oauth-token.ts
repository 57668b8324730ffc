import { createSchema } from 'electrodb';

/**
 * An OAuth access token, kept as its SHA-256 digest; the tokens of one authorization share a
 * family, revoked as a whole (oauth/families.ts).
 *
 * | access pattern     | index | pk                      | sk                    |
 * |--------------------|-------|-------------------------|-----------------------|
 * | token by digest    | table | OAUTHTOKEN#<digest>     | OAUTHTOKEN            |
 * | tokens of a family | gsi1  | OAUTHFAMILY#<familyId>  | OAUTHTOKEN#<digest>   |
 */
export const oauthTokenSchema = createSchema({
  model: { entity: 'oauthToken', version: '1', service: 'tenant-api' },
  attributes: {
    digest: { type: 'string', required: true },
    clientId: { type: 'string', required: true },
    familyId: { type: 'string', required: true },
    userId: { type: 'number', required: true },
    workspaceId: { type: 'string', required: true },
    scopes: { type: 'list', items: { type: 'string' }, required: true },
    expiresAt: { type: 'string', required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
    /** Epoch seconds, the same moment as `expiresAt`. */
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byDigest: {
      pk: { field: 'pk', composite: ['digest'], template: 'OAUTHTOKEN#${digest}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'OAUTHTOKEN', casing: 'none' },
    },
    byFamily: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['familyId'], template: 'OAUTHFAMILY#${familyId}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['digest'], template: 'OAUTHTOKEN#${digest}', casing: 'none' },
    },
  },
});
