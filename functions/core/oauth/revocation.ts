import { OAuthRefusal } from '#core/platform/errors';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { type ClientCredentialFields, clientCredentialsOf, clientRefusal } from './client-authentication.ts';
import { findOAuthClient } from './clients.ts';
import { revokeFamily } from './families.ts';

export interface RevocationRequest extends ClientCredentialFields {
  token?: string;
  token_type_hint?: string;
}

/**
 * RFC 7009: the client that holds a token says it is done with it. An access token is
 * deleted; a refresh token takes its whole family with it. A token that is unknown, already
 * revoked or another client's is answered the same (200), so nothing about it is learned.
 */
export async function revokeOAuthToken(deps: Deps, form: RevocationRequest, authorization: string | undefined): Promise<void> {
  const { id, secret } = clientCredentialsOf(form, authorization);
  const refused = (reason: string) => new OAuthRefusal(401, 'invalid_client', reason, { 'WWW-Authenticate': 'Basic realm="Service"' });
  if (!id) throw refused('Invalid client: send the `client_id`, in the form or as HTTP Basic.');
  const refusal = clientRefusal(await findOAuthClient(deps, id), secret);
  if (refusal) throw refused(refusal);
  if (!form.token) throw new OAuthRefusal(400, 'invalid_request', 'Missing parameter: `token`');
  const digest = sha256(form.token);
  const { oauthToken, oauthRefreshToken } = deps.db.entities;
  const [{ data: access }, { data: refresh }] = await Promise.all([
    oauthToken.get({ digest }).go({ consistent: true }),
    oauthRefreshToken.get({ digest }).go({ consistent: true }),
  ]);
  if (access?.clientId === id) await oauthToken.delete({ digest }).go();
  if (refresh?.clientId === id) await revokeFamily(deps, refresh.familyId);
}
