import { createSchema } from 'electrodb';

/**
 * A consent page not yet answered, by the digest of its form's ticket, holding the request
 * exactly as shown to that session. The answer deletes it on condition that it exists, so that
 * each page is answered once.
 *
 * | access pattern    | index | pk                      | sk            |
 * |-------------------|-------|-------------------------|---------------|
 * | consent by ticket | table | OAUTHCONSENT#<digest>   | OAUTHCONSENT  |
 */
export const oauthConsentSchema = createSchema({
  model: { entity: 'oauthConsent', version: '1', service: 'tenant-api' },
  attributes: {
    digest: { type: 'string', required: true },
    /** The SHA-256 digest of the session cookie the page was shown to. */
    sessionDigest: { type: 'string', required: true },
    userId: { type: 'number', required: true },
    clientId: { type: 'string', required: true },
    /** The authorization request's parameters, as validated when the page was shown. */
    request: {
      type: 'map',
      required: true,
      properties: {
        response_type: { type: 'string' },
        client_id: { type: 'string' },
        redirect_uri: { type: 'string' },
        scope: { type: 'string' },
        state: { type: 'string' },
        code_challenge: { type: 'string' },
        code_challenge_method: { type: 'string' },
      },
    },
    redirectUri: { type: 'string', required: true },
    createdAt: { type: 'string', required: true, readOnly: true },
    /** Epoch seconds. */
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byDigest: {
      pk: { field: 'pk', composite: ['digest'], template: 'OAUTHCONSENT#${digest}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'OAUTHCONSENT', casing: 'none' },
    },
  },
});
