import { createSchema } from 'electrodb';

export const oauthGrants = ['authorization_code', 'client_credentials'] as const;

/**
 * An application registered for OAuth 2.0: a confidential client's secret is kept only as its
 * SHA-256 digest; a public client has none and must use PKCE.
 *
 * | access pattern   | index | pk                   | sk           |
 * |------------------|-------|----------------------|--------------|
 * | client by id     | table | OAUTHCLIENT#<id>     | OAUTHCLIENT  |
 */
export const oauthClientSchema = createSchema({
  model: { entity: 'oauthClient', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    ownerUserId: { type: 'number', required: true },
    workspaceId: { type: 'string', required: true },
    redirectUris: { type: 'list', items: { type: 'string' }, required: true },
    /** Of `oauthGrants`. */
    grants: { type: 'list', items: { type: 'string' }, required: true },
    /** The most any of its tokens may carry. */
    scopes: { type: 'list', items: { type: 'string' }, required: true },
    secretDigest: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
  },
  indexes: {
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'OAUTHCLIENT#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'OAUTHCLIENT', casing: 'none' },
    },
  },
});
