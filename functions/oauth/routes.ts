import type { RouteSpec } from '#core/route-types';
import { authorizeQuery, oauthToken, tokenForm } from '#schemas/oauth';

/** The routes of the oauth function; functions/routes.ts composes every folder's table into the registry. */
export const oauthRoutes = [
  {
    operationId: 'authorizeOAuthClient',
    method: 'GET',
    path: '/oauth/authorize',
    mount: 'root',
    auth: 'credential',
    scope: 'users:write',
    credentials: ['session'],
    enabledBy: 'OAUTH_ENABLED',
    summary: "OAuth authorization code grant with PKCE: approves for the signed-in user and redirects to the client's redirect_uri",
    tag: 'OAuth',
    query: authorizeQuery,
    responses: {
      302: { description: 'To redirect_uri with `code` and `state`, or with `error` and `error_description` (RFC 6749 section 4.1.2).' },
    },
  },
  {
    operationId: 'issueOAuthToken',
    method: 'POST',
    path: '/oauth/token',
    mount: 'root',
    auth: 'none',
    enabledBy: 'OAUTH_ENABLED',
    summary: 'OAuth token endpoint: authorization_code (with code_verifier) or client_credentials; client secret in the form or as HTTP Basic',
    tag: 'OAuth',
    body: tokenForm,
    bodyFormat: 'form',
    responses: { 200: { description: 'The access token (RFC 6749 section 5.1).', schema: oauthToken } },
  },
] as const satisfies readonly RouteSpec[];
