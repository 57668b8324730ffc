import { credentialOf } from '#core/credentials/credential-header';

const basic = (userAndPassword: string) =>
  credentialOf({ authorization: `Basic ${Buffer.from(userAndPassword).toString('base64')}`, method: 'GET', sourceIp: '::1' });

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as { status: number; errorCode: string; message: string };
  }
  throw new Error('expected the credential to be refused');
};

describe('HTTP Basic', () => {
  it('takes the API key as the user name with an empty password', () => {
    expect(basic('sk_live_abc:')).toEqual({ type: 'api_key', key: 'sk_live_abc' });
  });

  it('refuses a non-empty password saying that it must be empty', () => {
    const refused = refusal(() => basic('sk_live_abc:secret'));
    expect(refused).toMatchObject({ status: 401, errorCode: 'UNAUTHENTICATED' });
    expect(refused.message).toMatch(/API key as the user name and an empty password/);
  });

  it('refuses an email and password pointing to /login', () => {
    const refused = refusal(() => basic('pat@example.com:correct horse'));
    expect(refused).toMatchObject({ status: 401, errorCode: 'UNAUTHENTICATED' });
    expect(refused.message).toMatch(/email and password is not accepted: sign in with POST \/login/);
  });

  it('refuses an empty user name saying so', () => {
    expect(refusal(() => basic(':pw')).message).toMatch(/user name is empty/);
  });
});

describe('Bearer', () => {
  it.each([`"sk_live_${'a'.repeat(32)}"`, `'sk_test_${'b'.repeat(32)}'`])(
    'refuses a quoted credential (%s), saying to send it without quotes',
    (quoted) => {
      const refused = refusal(() => credentialOf({ authorization: `Bearer ${quoted}`, method: 'GET', sourceIp: '::1' }));
      expect(refused).toMatchObject({ status: 401, errorCode: 'UNAUTHENTICATED' });
      expect(refused.message).toMatch(/in quotes: send it without them/);
    },
  );
});
