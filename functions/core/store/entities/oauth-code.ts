import { createSchema } from 'electrodb';

/**
 * An OAuth authorization code, kept as its SHA-256 digest and deleted on exchange on condition
 * that it exists, which makes it single-use.
 *
 * | access pattern   | index | pk                    | sk         |
 * |------------------|-------|-----------------------|------------|
 * | code by digest   | table | OAUTHCODE#<digest>    | OAUTHCODE  |
 */
export const oauthCodeSchema = createSchema({
  model: { entity: 'oauthCode', version: '1', service: 'tenant-api' },
  attributes: {
    digest: { type: 'string', required: true },
    clientId: { type: 'string', required: true },
    userId: { type: 'number', required: true },
    workspaceId: { type: 'string', required: true },
    redirectUri: { type: 'string', required: true },
    scopes: { type: 'list', items: { type: 'string' }, required: true },
    /** PKCE (RFC 7636): the S256 challenge (the only method accepted) the code_verifier must match. */
    codeChallenge: { type: 'string', required: true },
    expiresAt: { type: 'string', required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
    /** Epoch seconds, the same moment as `expiresAt`. */
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byDigest: {
      pk: { field: 'pk', composite: ['digest'], template: 'OAUTHCODE#${digest}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'OAUTHCODE', casing: 'none' },
    },
  },
});
