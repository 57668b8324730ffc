import * as z from 'zod/mini';
import { describe, withMeta } from '#core/platform/schema-meta';

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

export const tokenForm = withMeta(
  z.object({
    grant_type: parameter('`authorization_code`, `refresh_token` or `client_credentials`'),
    refresh_token: parameter('refresh_token: the refresh token of the last answer; it is replaced by a new one'),
    code: parameter('authorization_code: the code from the redirect'),
    redirect_uri: parameter('authorization_code: the redirect_uri of the authorization request'),
    code_verifier: parameter('authorization_code: the PKCE verifier'),
    client_id: parameter('The client id, unless sent with HTTP Basic'),
    client_secret: parameter("A confidential client's secret, unless sent with HTTP Basic"),
    scope: parameter("client_credentials: space-separated scopes; the client's own when omitted. refresh_token: at most the original ones"),
  }),
  {
    examples: [
      {
        grant_type: 'authorization_code',
        code: 'Splx10BeZQQYbYS6WxSbIA',
        redirect_uri: 'https://app.example.com/callback',
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        client_id: 'client_01JDQ8Z6Y3K4M5N6P7Q8R9S0TV',
      },
    ],
  },
);

export const consentForm = z.strictObject({
  consent_ticket: describe(z.string().check(z.minLength(1), z.maxLength(200)), 'The one-time ticket of the consent page'),
  decision: describe(z.enum(['allow', 'deny']), 'The button the user pressed'),
});

export const revokeForm = z.object({
  token: parameter('The access or refresh token to revoke (RFC 7009)'),
  token_type_hint: parameter('`access_token` or `refresh_token`; optional'),
  client_id: parameter('The client id, unless sent with HTTP Basic'),
  client_secret: parameter("A confidential client's secret, unless sent with HTTP Basic"),
});

export const oauthToken = withMeta(
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: describe(z.int(), 'Seconds until the token expires'),
    refresh_token: describe(
      z.optional(z.string()),
      'Code and refresh grants: exchanged with grant_type=refresh_token for a new pair; each works once, and a second use revokes every token of the authorization',
    ),
    scope: describe(z.string(), 'The scopes granted, space-separated'),
  }),
  { id: 'OAuthToken' },
);
