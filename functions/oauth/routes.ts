import { routeTable } from '#core/http/route-table';
import { authorizeQuery, consentForm, oauthToken, revokeForm, tokenForm } from '#core/oauth/oauth-schemas';

/** The routes of the oauth function; functions/routes.ts composes every folder's table into the registry. */
export const oauthRoutes = routeTable({ tag: 'OAuth', auth: 'none', mount: 'root', enabledBy: 'OAUTH_ENABLED' }, [
  {
    operationId: 'authorizeOAuthClient',
    description:
      "Open it in the user's browser with `response_type=code`, `client_id`, `redirect_uri`, `scope`, `state` and the PKCE `code_challenge` (S256). The user must be signed in (`POST /login`) in that browser: without a session it answers 401.",
    method: 'GET',
    path: '/oauth/authorize',
    auth: 'credential',
    scope: 'users:write',
    credentials: ['session'],
    summary: 'OAuth authorization code grant with PKCE: shows the signed-in user a consent page (client, scopes, Allow / Deny)',
    query: authorizeQuery,
    responses: {
      200: { description: 'The consent page; nothing is issued until the user answers it.', html: true },
      302: {
        description:
          'A request the client must be told is wrong: to redirect_uri with `error` and `error_description` (RFC 6749 section 4.1.2.1).',
      },
    },
  },
  {
    operationId: 'answerOAuthConsent',
    method: 'POST',
    path: '/oauth/authorize',
    summary: "The consent page's answer: its one-time ticket and the session cookie it was shown to, then a redirect to the client",
    body: consentForm,
    bodyFormat: 'form',
    responses: {
      302: { description: 'To redirect_uri with `code` and `state` (Allow) or `error=access_denied` and `state` (Deny).' },
    },
  },
  {
    operationId: 'issueOAuthToken',
    description:
      'Authenticate a confidential client with HTTP Basic (`client_id:client_secret`) or with `client_id` and `client_secret` in the form, one of the two; a public client sends only `client_id` and proves itself with the PKCE `code_verifier`. Refusals follow RFC 6749 section 5.2 (`invalid_client`, `invalid_grant`, …) inside the usual error envelope.',
    method: 'POST',
    path: '/oauth/token',
    summary:
      'OAuth token endpoint: authorization_code (with code_verifier), refresh_token or client_credentials; client secret in the form or as HTTP Basic',
    body: tokenForm,
    bodyFormat: 'form',
    responses: { 200: { description: 'The access token (RFC 6749 section 5.1).', schema: oauthToken } },
  },
  {
    operationId: 'revokeOAuthToken',
    method: 'POST',
    path: '/oauth/revoke',
    summary: 'OAuth token revocation (RFC 7009): an access token, or a refresh token with every token of its authorization',
    body: revokeForm,
    bodyFormat: 'form',
    responses: { 200: { description: "Revoked, or unknown, already revoked or another client's: the answer is the same." } },
  },
]);
