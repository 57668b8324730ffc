import { clientRefusal } from '#core/oauth/client-authentication';
import { sha256 } from '#core/platform/secrets';
import type { OAuthClientItem } from '#core/store/items';

const client = (secret?: string) => ({ id: 'client_x', ...(secret ? { secretDigest: sha256(secret) } : {}) }) as OAuthClientItem;

describe('why a client is refused at the token and revocation endpoints (invalid_client)', () => {
  it.each([
    ['an unknown client_id', undefined, 'anything', 'Invalid client: no client is registered with this `client_id`.'],
    [
      'a confidential client without its secret',
      client('s3cret'),
      undefined,
      'Invalid client: this client is confidential: send its `client_secret`, in the form or as HTTP Basic (RFC 6749 section 2.3.1).',
    ],
    ['a confidential client with a wrong secret', client('s3cret'), 'guess', "Invalid client: the `client_secret` is not this client's."],
    [
      'a public client sending a secret',
      client(),
      'guess',
      'Invalid client: this client is public and has no secret: send no `client_secret` (the `code_verifier` proves the code).',
    ],
  ])('says what is wrong with %s', (_case, found, secret, reason) => {
    expect(clientRefusal(found, secret)).toBe(reason);
  });

  it('passes a confidential client with its secret, and a public one without', () => {
    expect([clientRefusal(client('s3cret'), 's3cret'), clientRefusal(client(), undefined)]).toEqual([undefined, undefined]);
  });
});
