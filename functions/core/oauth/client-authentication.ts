import { OAuthRefusal } from '#core/platform/errors';
import { sameSecret, sha256 } from '#core/platform/secrets';
import type { OAuthClientItem } from '#core/store/items';

/** The client's id and secret as a request may carry them: in the form, or as HTTP Basic. */
export interface ClientCredentialFields {
  client_id?: string;
  client_secret?: string;
}

/**
 * The id and secret of an `Authorization: Basic` header (RFC 6749 section 2.3.1: each
 * form-encoded, then joined by a colon); `{}` when it cannot be read, undefined when the
 * request sent no Basic credentials.
 */
function basicCredentials(authorization: string | undefined): { id?: string; secret?: string } | undefined {
  const [scheme, value = ''] = authorization?.trim().split(/\s+/) ?? [];
  if (scheme?.toLowerCase() !== 'basic') return undefined;
  const [id = '', secret = ''] = Buffer.from(value, 'base64').toString('utf8').split(/:(.*)/s);
  try {
    return { id: decodeURIComponent(id.replaceAll('+', ' ')), secret: decodeURIComponent(secret.replaceAll('+', ' ')) };
  } catch {
    return {};
  }
}

/**
 * A client authenticates one way per request (RFC 6749 section 2.3): HTTP Basic with a
 * secret in the form too, or with another client's id in the form, is invalid_request,
 * rather than one of them silently winning. The same client id in both names one client.
 */
export function requireOneClientAuthentication(form: ClientCredentialFields, authorization: string | undefined): void {
  const basic = basicCredentials(authorization);
  if (!basic) return;
  if (form.client_secret !== undefined) {
    throw new OAuthRefusal(
      400,
      'invalid_request',
      'Authenticate the client one way: HTTP Basic or `client_secret` in the form, not both (RFC 6749 section 2.3).',
    );
  }
  if (form.client_id !== undefined && form.client_id !== basic.id) {
    throw new OAuthRefusal(
      400,
      'invalid_request',
      "The form's `client_id` names another client than HTTP Basic does: send one client's credentials (RFC 6749 section 2.3).",
    );
  }
}

/** The client's id and secret: from HTTP Basic when it came, else from the form; never both. */
export function clientCredentialsOf(form: ClientCredentialFields, authorization: string | undefined): { id?: string; secret?: string } {
  requireOneClientAuthentication(form, authorization);
  return basicCredentials(authorization) ?? { id: form.client_id, secret: form.client_secret };
}

/**
 * Why the token and revocation endpoints refuse a client's credentials, in words the caller can
 * act on (the code stays `invalid_client`); undefined when they hold. Client ids are not
 * secrets (every authorization URL shows one), so saying that an id is unknown gives nothing
 * away.
 */
export function clientRefusal(client: OAuthClientItem | undefined, secret: string | null | undefined): string | undefined {
  if (!client) return 'Invalid client: no client is registered with this `client_id`.';
  if (!client.secretDigest) {
    return secret
      ? 'Invalid client: this client is public and has no secret: send no `client_secret` (the `code_verifier` proves the code).'
      : undefined;
  }
  if (!secret) {
    return 'Invalid client: this client is confidential: send its `client_secret`, in the form or as HTTP Basic (RFC 6749 section 2.3.1).';
  }
  return sameSecret(sha256(secret), client.secretDigest) ? undefined : "Invalid client: the `client_secret` is not this client's.";
}
