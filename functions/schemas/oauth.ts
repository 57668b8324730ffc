import * as z from 'zod/mini';
import { describe, withMeta } from '#core/schema-meta';

/**
 * OAuth parameters are all optional strings here: RFC 6749 has the authorization server
 * ignore unknown parameters and answer a bad or missing one in the protocol's own way
 * (a redirect with error=, or an RFC error body), which the library does.
 */
const parameter = (description: string) => describe(z.optional(z.string()), description);

export const authorizeQuery = z.object({
  response_type: parameter('`code`'),
  client_id: parameter('The registered client id (`client_…`)'),
  redirect_uri: parameter("One of the client's registered redirect URIs; its first when omitted"),
  scope: parameter("Space-separated scopes; the client's own when omitted"),
  state: parameter('Opaque value handed back with the code'),
  code_challenge: parameter('PKCE, required: base64url SHA-256 of the code verifier'),
  code_challenge_method: parameter('PKCE: `S256`, the only method accepted (and the default)'),
});

export const tokenForm = z.object({
  grant_type: parameter('`authorization_code` or `client_credentials`'),
  code: parameter('authorization_code: the code from the redirect'),
  redirect_uri: parameter('authorization_code: the redirect_uri of the authorization request'),
  code_verifier: parameter('authorization_code: the PKCE verifier'),
  client_id: parameter('The client id, unless sent with HTTP Basic'),
  client_secret: parameter("A confidential client's secret, unless sent with HTTP Basic"),
  scope: parameter("client_credentials: space-separated scopes; the client's own when omitted"),
});

export const oauthToken = withMeta(
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: describe(z.int(), 'Seconds until the token expires'),
    scope: describe(z.string(), 'The scopes granted, space-separated'),
  }),
  { id: 'OAuthToken' },
);
