import OAuth2Server from '@node-oauth/oauth2-server';
import type * as z from 'zod/mini';
import { OAuthRefusal } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { requireOneClientAuthentication } from './client-authentication.ts';
import { findOAuthClient } from './clients.ts';
import { type Approver, type CodeSink, oauthModel } from './model.ts';
import type { oauthToken } from './oauth-schemas.ts';
import { RefreshTokenGrant } from './refresh-grant.ts';
import { accessTokenLifetimeSeconds, authorizationCodeLifetimeSeconds, refreshTokenLifetimeSeconds } from './token-lifetimes.ts';

export type OAuthParameters = Record<string, string | undefined>;

/** Parameters as the library reads them: only those sent. */
const sent = (parameters: OAuthParameters): Record<string, string> =>
  Object.fromEntries(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined));

export type TokenResponse = z.output<typeof oauthToken>;

/**
 * The library's types want getAccessToken, which only its own request authentication
 * calls; the authorizer checks access tokens itself (credentials/oauth-auth.ts). Plain PKCE stays
 * refused, the library's default: S256 only.
 */
const serverFor = (deps: Deps, endpoint: 'authorize' | 'token', sink?: CodeSink) =>
  new OAuth2Server({
    model: oauthModel(deps, endpoint, sink) as unknown as OAuth2Server.ServerOptions['model'],
    accessTokenLifetime: accessTokenLifetimeSeconds,
    refreshTokenLifetime: refreshTokenLifetimeSeconds,
    authorizationCodeLifetime: authorizationCodeLifetimeSeconds,
    // A public client has no secret to refresh with; clientFor still holds a confidential one to its secret.
    requireClientAuthentication: { refresh_token: false },
    extendedGrantTypes: { refresh_token: RefreshTokenGrant },
  });

/**
 * A refusal of the protocol becomes our envelope with the RFC's code. A fault of ours that
 * the library wrapped (its 5xx) is unwrapped, so it is logged and answered as the 500 it is.
 */
function translated(error: unknown, response: OAuth2Server.Response): unknown {
  if (!(error instanceof OAuth2Server.OAuthError)) return error;
  if (error.code >= 500) return (error as { inner?: unknown }).inner ?? error;
  const challenge = response.get('www-authenticate') as string | undefined;
  return new OAuthRefusal(error.code, error.name, error.message, challenge ? { 'WWW-Authenticate': challenge } : {});
}

/**
 * Runs the authorization endpoint for `user`, with the code going to `sink` (looked at) or
 * stored. Returns where to redirect: the client's redirect_uri with `code` and `state`, or
 * with `error` for a refusal the client can be told of (RFC 6749 section 4.1.2.1). A refusal
 * with no registered redirect_uri to carry it (unknown client, foreign redirect_uri) is thrown.
 */
async function runAuthorization(deps: Deps, query: OAuthParameters, user: Approver, sink?: CodeSink): Promise<string> {
  const client = query.client_id ? await findOAuthClient(deps, query.client_id) : undefined;
  // With several registered, which one is meant must be said (RFC 6749 section 3.1.2.3).
  if (client && !query.redirect_uri && client.redirectUris.length > 1) {
    throw new OAuthRefusal(
      400,
      'invalid_request',
      'Missing parameter: `redirect_uri` (this client registered several; send one of them exactly)',
    );
  }
  const response = new OAuth2Server.Response();
  try {
    await serverFor(deps, 'authorize', sink).authorize(
      new OAuth2Server.Request({ method: 'GET', headers: {}, query: sent(query) }),
      response,
      {
        authenticateHandler: { handle: () => user },
      },
    );
  } catch (error) {
    const refusal = translated(error, response);
    if (!(refusal instanceof OAuthRefusal) || !response.get('location')) throw refusal;
  }
  return response.get('location') as string;
}

/** What the consent page shows: the client, the scopes it would get, and where the answer goes. */
export interface ConsentRequest {
  client: { id: string; name: string };
  scopes: string[];
  redirectUri: string;
}

/**
 * Validates an authorization request without issuing anything: either a redirect that
 * tells the client why it is refused, or what the user is asked to consent to.
 */
export async function reviewAuthorization(
  deps: Deps,
  query: OAuthParameters,
  user: Approver,
): Promise<{ redirect: string } | { consent: ConsentRequest }> {
  let consent: ConsentRequest | undefined;
  const location = await runAuthorization(deps, query, user, async (code, client) => {
    consent = { client: { id: client.id, name: client.name }, scopes: code.scopes, redirectUri: code.redirectUri };
  });
  return consent ? { consent } : { redirect: location };
}

/** The user said yes: the same request runs again, and this time the code is stored. */
export const approveAuthorization = (deps: Deps, query: OAuthParameters, user: Approver): Promise<string> =>
  runAuthorization(deps, query, user);

/** The user said no: the client hears `access_denied` at its redirect_uri (RFC 6749 section 4.1.2.1). */
export function deniedRedirect(redirectUri: string, state: string | undefined): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', 'access_denied');
  url.searchParams.set('error_description', 'The user denied the request.');
  if (state !== undefined) url.searchParams.set('state', state);
  return url.href;
}

/**
 * The token endpoint: the authorization code (with its PKCE verifier), refresh token or
 * client credentials grant, the client authenticated by form fields or HTTP Basic.
 */
export async function issueToken(deps: Deps, form: OAuthParameters, authorization?: string): Promise<TokenResponse> {
  // The library would take Basic and ignore the form: two methods at once are refused first.
  requireOneClientAuthentication(form, authorization);
  const response = new OAuth2Server.Response();
  // The pipeline has refused any media type but the form's; the library checks it again
  // with type-is, which also looks for a body length.
  const body = sent(form);
  const length = Buffer.byteLength(new URLSearchParams(body).toString());
  const headers = {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(length),
    ...(authorization ? { authorization } : {}),
  };
  try {
    await serverFor(deps, 'token').token(new OAuth2Server.Request({ method: 'POST', headers, query: {}, body }), response);
  } catch (error) {
    throw translated(error, response);
  }
  return response.body as TokenResponse;
}
