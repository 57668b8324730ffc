import { createSchema } from 'electrodb';

/**
 * An OAuth access token, by the SHA-256 digest of the token; never the token itself. It
 * acts for a user in a workspace with its scopes, and is gone for the code once `ttl`
 * passes, whatever DynamoDB's TTL has removed yet.
 *
 * | access pattern    | index | pk                     | sk          |
 * |-------------------|-------|------------------------|-------------|
 * | token by digest   | table | OAUTHTOKEN#<digest>    | OAUTHTOKEN  |
 */
export const oauthTokenSchema = createSchema({
  model: { entity: 'oauthToken', version: '1', service: 'tenant-api' },
  attributes: {
    digest: { type: 'string', required: true },
    clientId: { type: 'string', required: true },
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
  },
});
