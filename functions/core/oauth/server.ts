import OAuth2Server from '@node-oauth/oauth2-server';
import type { Deps } from '../deps.ts';
import { OAuthRefusal } from '../errors.ts';
import { accessTokenLifetimeSeconds, authorizationCodeLifetimeSeconds, oauthModel, type OAuthUser } from './model.ts';

export type OAuthParameters = Record<string, string | undefined>;

/** Parameters as the library reads them: only those sent. */
const sent = (parameters: OAuthParameters): Record<string, string> =>
  Object.fromEntries(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined));

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/**
 * The library's types want getAccessToken, which only its own request authentication
 * calls; the authorizer checks access tokens itself (auth/oauth-auth.ts). Plain PKCE stays
 * refused, the library's default: S256 only.
 */
const serverFor = (deps: Deps, endpoint: 'authorize' | 'token') =>
  new OAuth2Server({
    model: oauthModel(deps, endpoint) as unknown as OAuth2Server.ServerOptions['model'],
    accessTokenLifetime: accessTokenLifetimeSeconds,
    authorizationCodeLifetime: authorizationCodeLifetimeSeconds,
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
 * The authorization endpoint, approving at once for the signed-in user (there is no consent
 * screen). Returns where to redirect: the client's redirect_uri with `code` and `state`, or
 * with `error` for a refusal the client can be told of (RFC 6749 section 4.1.2.1). A refusal
 * with no registered redirect_uri to carry it (unknown client, foreign redirect_uri) is thrown.
 */
export async function authorize(deps: Deps, query: OAuthParameters, user: OAuthUser): Promise<string> {
  const response = new OAuth2Server.Response();
  try {
    await serverFor(deps, 'authorize').authorize(new OAuth2Server.Request({ method: 'GET', headers: {}, query: sent(query) }), response, {
      authenticateHandler: { handle: () => user },
    });
  } catch (error) {
    const refusal = translated(error, response);
    if (!(refusal instanceof OAuthRefusal) || !response.get('location')) throw refusal;
  }
  return response.get('location') as string;
}

/**
 * The token endpoint: the authorization code (with its PKCE verifier) or client
 * credentials grant, the client authenticated by form fields or HTTP Basic.
 */
export async function issueToken(deps: Deps, form: OAuthParameters, authorization?: string): Promise<TokenResponse> {
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
