import OAuth2Server from '@node-oauth/oauth2-server';
import type { Client, oauthModel } from './model.ts';
import { withinScopes } from './scopes.ts';

type Model = Pick<ReturnType<typeof oauthModel>, 'getRefreshToken' | 'saveToken'>;

/**
 * The refresh token grant (RFC 6749 section 6) in place of the library's, which spends the
 * token before it checks the requested scope, so that a corrected retry reads as reuse and
 * revokes the family. Here every check comes first, and the token is spent in the write that
 * stores its successor (model.ts saveToken).
 */
export class RefreshTokenGrant extends OAuth2Server.AbstractGrantType {
  /** The server's model, set by the library's constructor. */
  declare readonly model: Model;

  async handle(request: OAuth2Server.Request, client: Client) {
    const presented: unknown = request.body.refresh_token;
    if (typeof presented !== 'string' || !presented) throw new OAuth2Server.InvalidRequestError('Missing parameter: `refresh_token`');
    const token = await this.model.getRefreshToken(presented);
    if (!token) throw new OAuth2Server.InvalidGrantError('Invalid grant: refresh token is invalid');
    if (token.clientId !== client.id) throw new OAuth2Server.InvalidGrantError('Invalid grant: refresh token was issued to another client');
    // The library's parser: a malformed scope is invalid_scope. Its types omit that none may be sent.
    const requested = this.getScope(request) as string[] | undefined;
    // Any narrower scopes the grant covers by the grammar: a `*` grant may become `workspaces:read`.
    const beyond = requested?.filter((scope) => !withinScopes(token.scopes, scope));
    if (beyond?.length)
      throw new OAuth2Server.InvalidScopeError(`Invalid scope: the grant (${token.scopes.join(' ')}) does not cover ${beyond.join(' ')}`);
    const scope = requested ? [...new Set(requested)] : token.scopes;
    const next = {
      accessToken: await this.generateAccessToken(client, token.user, scope),
      refreshToken: await this.generateRefreshToken(client, token.user, scope),
      scope,
    };
    return this.model.saveToken(next, client, token.user);
  }
}
