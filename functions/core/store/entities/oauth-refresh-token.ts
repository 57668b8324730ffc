import { createSchema } from 'electrodb';

/**
 * An OAuth refresh token, kept as its SHA-256 digest. A use marks it `usedAt`; a second use
 * means it leaked, and its whole family is revoked.
 *
 * | access pattern       | index | pk                      | sk                      |
 * |----------------------|-------|-------------------------|-------------------------|
 * | token by digest      | table | OAUTHREFRESH#<digest>   | OAUTHREFRESH            |
 * | tokens of a family   | gsi1  | OAUTHFAMILY#<familyId>  | OAUTHREFRESH#<digest>   |
 */
export const oauthRefreshTokenSchema = createSchema({
  model: { entity: 'oauthRefreshToken', version: '1', service: 'tenant-api' },
  attributes: {
    digest: { type: 'string', required: true },
    familyId: { type: 'string', required: true },
    clientId: { type: 'string', required: true },
    userId: { type: 'number', required: true },
    workspaceId: { type: 'string', required: true },
    scopes: { type: 'list', items: { type: 'string' }, required: true },
    expiresAt: { type: 'string', required: true },
    /** Set when the token was exchanged for a new pair; from then on it only reveals reuse. */
    usedAt: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    /** Epoch seconds, the same moment as `expiresAt`. */
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byDigest: {
      pk: { field: 'pk', composite: ['digest'], template: 'OAUTHREFRESH#${digest}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'OAUTHREFRESH', casing: 'none' },
    },
    byFamily: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['familyId'], template: 'OAUTHFAMILY#${familyId}', casing: 'none' },
      sk: { field: 'gsi1sk', composite: ['digest'], template: 'OAUTHREFRESH#${digest}', casing: 'none' },
    },
  },
});
