import { createHash, randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { authenticate } from '#core/credentials/authenticate';
import { authenticateOAuth } from '#core/credentials/oauth-auth';
import { registerOAuthClient } from '#core/oauth/clients';
import { askConsent } from '#core/oauth/consent';
import type { OAuthUser } from '#core/oauth/model';
import { revokeOAuthToken } from '#core/oauth/revocation';
import { approveAuthorization, issueToken, type OAuthParameters } from '#core/oauth/server';
import { accessTokenLifetimeSeconds, authorizationCodeLifetimeSeconds, refreshTokenLifetimeSeconds } from '#core/oauth/token-lifetimes';
import type { ApiError } from '#core/platform/errors';
import { sha256 } from '#core/platform/secrets';
import { tiers } from '#core/platform/tiers';
import { createDocumentClient } from '#core/store/client';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { manualClock, type TestDeps, testDeps } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';

// Off whatever the shell says (the authorizer's switch); the domain functions need no switch.
process.env.OAUTH_ENABLED = '0';

const clock = manualClock(new Date());
const redirectUri = 'https://app.example.com/callback';
let deps: TestDeps;
let user: OAuthUser;
let publicClient: string;
let confidential: { clientId: string; clientSecret: string };
/** The confidential client's credentials as form fields. */
let secretForm: OAuthParameters;

/** A PKCE pair: a 43-character verifier and its S256 challenge. */
function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Runs the authorization request and returns the redirect it answers with. */
async function authorizeUrl(clientId: string, challenge: string | undefined, extra: OAuthParameters = {}, as: OAuthUser = user) {
  const query = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state: 'st-1',
    code_challenge: challenge,
    ...extra,
  };
  return new URL(await approveAuthorization(deps, query, as));
}

async function codeFor(clientId: string, challenge: string, extra: OAuthParameters = {}, as: OAuthUser = user) {
  return (await authorizeUrl(clientId, challenge, extra, as)).searchParams.get('code')!;
}

const exchange = (clientId: string, code: string, verifier: string, extra: OAuthParameters = {}) =>
  issueToken(deps, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    ...extra,
  });

beforeAll(async () => {
  deps = await testDeps({ clock });
  const owner = await createUser(deps, { name: 'Olive', email: 'olive@example.com', tier: 'pro' });
  const workspace = await createWorkspace(deps, owner.id, { name: 'Orchard', tier: 'pro' });
  user = { userId: owner.id, workspaceId: workspace.id, scopes: ['*'] };
  ({ clientId: publicClient } = await registerOAuthClient(deps, {
    name: 'SPA',
    ownerUserId: owner.id,
    workspaceId: workspace.id,
    redirectUris: [redirectUri],
    grants: ['authorization_code'],
    scopes: ['workspaces:read', 'api-keys:read'],
    confidential: false,
  }));
  confidential = (await registerOAuthClient(deps, {
    name: 'Backend',
    ownerUserId: owner.id,
    workspaceId: workspace.id,
    redirectUris: [redirectUri],
    grants: ['authorization_code', 'client_credentials'],
    scopes: ['workspaces:read', 'workspaces:write'],
    confidential: true,
  })) as { clientId: string; clientSecret: string };
  secretForm = { client_id: confidential.clientId, client_secret: confidential.clientSecret };
});

describe('authorization code grant with PKCE', () => {
  it('redirects with a code and the state, and the code with its verifier buys a token acting for the user', async () => {
    const { verifier, challenge } = pkce();
    const redirect = await authorizeUrl(publicClient, challenge, { scope: 'workspaces:read' });
    expect(redirect.origin + redirect.pathname).toBe(redirectUri);
    expect(redirect.searchParams.get('state')).toBe('st-1');
    const token = await exchange(publicClient, redirect.searchParams.get('code')!, verifier);
    expect(token).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      refresh_token: expect.any(String),
      scope: 'workspaces:read',
    });
    // The whole lifetime, less the seconds the flow itself took: a minute's margin holds on a loaded
    // machine (a run under the full suite lost 5 s) and still tells the hour from any other lifetime.
    expect(token.expires_in).toBeLessThanOrEqual(accessTokenLifetimeSeconds);
    expect(token.expires_in).toBeGreaterThan(accessTokenLifetimeSeconds - 60);
    await expect(authenticateOAuth(deps, token.access_token)).resolves.toEqual({
      userId: user.userId,
      workspaceId: user.workspaceId,
      role: 'owner',
      environment: 'live',
      scopes: ['workspaces:read'],
      tier: 'pro',
      credential: { type: 'oauth', id: sha256(token.access_token) },
      limits: { expiresAt: expect.any(String), workspaceId: user.workspaceId },
      meteredWorkspaceId: user.workspaceId,
      usageKey: (await deps.db.entities.workspace.get({ id: user.workspaceId }).go()).data!.gatewayKey!.value,
      apiCallsLimit: tiers.pro.entitlements.api_calls,
    });
  });

  it('refuses a wrong verifier with invalid_grant, and the code is spent by the attempt', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, challenge);
    const wrong = await errorOf(exchange(publicClient, code, pkce().verifier));
    expect([wrong.status, wrong.code, wrong.errorCode]).toEqual([400, 'invalid_grant', 'INVALID_GRANT']);
    expect(wrong.extras.error_description).toMatch(/code verifier/);
    expect((await errorOf(exchange(publicClient, code, verifier))).code).toBe('invalid_grant');
  });

  it('takes a code once only', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, challenge);
    await exchange(publicClient, code, verifier);
    expect((await errorOf(exchange(publicClient, code, verifier))).code).toBe('invalid_grant');
  });

  it('refuses a code past its lifetime, though its record is still stored', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, challenge);
    clock.advance(authorizationCodeLifetimeSeconds * 1000);
    expect((await errorOf(exchange(publicClient, code, verifier))).code).toBe('invalid_grant');
    expect((await deps.db.entities.oauthCode.get({ digest: sha256(code) }).go()).data).not.toBeNull();
  });

  it('sends a request without an S256 challenge back to the client with error=invalid_request', async () => {
    for (const extra of [{}, { code_challenge_method: 'plain' }]) {
      const challenge = 'code_challenge_method' in extra ? pkce().verifier : undefined;
      const redirect = await authorizeUrl(publicClient, challenge, extra);
      expect(redirect.searchParams.get('error')).toBe('invalid_request');
      expect(redirect.searchParams.get('state')).toBe('st-1');
      expect(redirect.searchParams.has('code')).toBe(false);
    }
  });

  it('throws, rather than redirects, when the client is unknown or the redirect_uri is not registered', async () => {
    const { challenge } = pkce();
    const foreign = await errorOf(authorizeUrl(publicClient, challenge, { redirect_uri: 'https://evil.example/cb' }));
    expect([foreign.status, foreign.code]).toEqual([400, 'invalid_client']);
    expect((await errorOf(authorizeUrl('client_unknown', challenge))).code).toBe('invalid_client');
  });

  it('asks a confidential client for its secret at the token endpoint, PKCE or not', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(confidential.clientId, challenge);
    const withoutSecret = await errorOf(exchange(confidential.clientId, code, verifier));
    expect([withoutSecret.code, withoutSecret.message]).toEqual([
      'invalid_client',
      'Invalid client: this client is confidential: send its `client_secret`, in the form or as HTTP Basic (RFC 6749 section 2.3.1).',
    ]);
    const second = pkce();
    const token = await exchange(confidential.clientId, await codeFor(confidential.clientId, second.challenge), second.verifier, {
      client_secret: confidential.clientSecret,
    });
    expect(token.token_type).toBe('Bearer');
  });
});

describe('scopes', () => {
  it("narrows a token to the requested scopes the client holds, and the client's own when none are named", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, challenge, { scope: 'workspaces:read workspaces:write api-keys:read' });
    expect((await exchange(publicClient, code, verifier)).scope).toBe('workspaces:read api-keys:read');
    const all = pkce();
    expect((await exchange(publicClient, await codeFor(publicClient, all.challenge), all.verifier)).scope).toBe(
      'workspaces:read api-keys:read',
    );
  });

  it("never goes beyond what the approving user's credential holds", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, challenge, {}, { ...user, scopes: ['workspaces:read'] });
    expect((await exchange(publicClient, code, verifier)).scope).toBe('workspaces:read');
  });

  it('answers error=invalid_scope when nothing requested may be granted', async () => {
    const redirect = await authorizeUrl(publicClient, pkce().challenge, { scope: 'api-keys:write' });
    expect(redirect.searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('client credentials grant', () => {
  it("issues a token acting for the client's owner in its workspace, the secret in the form or as HTTP Basic", async () => {
    const form = await issueToken(deps, { grant_type: 'client_credentials', ...secretForm, scope: 'workspaces:read' });
    expect(form.scope).toBe('workspaces:read');
    const basic = `Basic ${Buffer.from(`${confidential.clientId}:${confidential.clientSecret}`).toString('base64')}`;
    const viaBasic = await issueToken(deps, { grant_type: 'client_credentials' }, basic);
    expect(viaBasic.scope).toBe('workspaces:read workspaces:write');
    const principal = await authenticateOAuth(deps, viaBasic.access_token);
    expect(principal).toMatchObject({
      userId: user.userId,
      workspaceId: user.workspaceId,
      scopes: ['workspaces:read', 'workspaces:write'],
    });
  });

  it('refuses a wrong secret with invalid_client, 401 with a challenge when it came as HTTP Basic', async () => {
    const inForm = await errorOf(
      issueToken(deps, { grant_type: 'client_credentials', client_id: confidential.clientId, client_secret: 'wrong' }),
    );
    expect([inForm.status, inForm.code, inForm.message]).toEqual([
      400,
      'invalid_client',
      "Invalid client: the `client_secret` is not this client's.",
    ]);
    const basic = `Basic ${Buffer.from(`${confidential.clientId}:wrong`).toString('base64')}`;
    const viaBasic = await errorOf(issueToken(deps, { grant_type: 'client_credentials' }, basic));
    expect([viaBasic.status, viaBasic.code, viaBasic.message]).toEqual([
      401,
      'invalid_client',
      "Invalid client: the `client_secret` is not this client's.",
    ]);
    expect(viaBasic.headers['WWW-Authenticate']).toMatch(/^Basic/);
  });

  it('is not open to a client registered without it', async () => {
    const codeOnly = await registerOAuthClient(deps, {
      name: 'Web app',
      ownerUserId: user.userId,
      workspaceId: user.workspaceId,
      redirectUris: [redirectUri],
      grants: ['authorization_code'],
      scopes: ['workspaces:read'],
      confidential: true,
    });
    const form = { grant_type: 'client_credentials', client_id: codeOnly.clientId, client_secret: codeOnly.clientSecret };
    const error = await errorOf(issueToken(deps, form));
    expect([error.status, error.code]).toEqual([400, 'unauthorized_client']);
  });
});

describe('access tokens', () => {
  it('treats an expired token as absent at once, though its record is still stored', async () => {
    const { access_token } = await issueToken(deps, { grant_type: 'client_credentials', ...secretForm });
    await authenticateOAuth(deps, access_token);
    clock.advance(accessTokenLifetimeSeconds * 1000);
    const error = await errorOf(authenticateOAuth(deps, access_token));
    expect([error.status, error.errorCode]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await deps.db.entities.oauthToken.get({ digest: sha256(access_token) }).go()).data).not.toBeNull();
  });

  it('are refused by the authorizer while OAuth is switched off', async () => {
    const { access_token } = await issueToken(deps, { grant_type: 'client_credentials', ...secretForm });
    const error = await errorOf(authenticate(deps, { authorization: `Bearer ${access_token}`, method: 'GET', sourceIp: '203.0.113.9' }));
    expect(error.status).toBe(401);
  });
});

describe('storage', () => {
  it('keeps only SHA-256 digests of access and refresh tokens, codes, consent tickets and client secrets, each with a TTL', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, challenge);
    const codeRecord = (await deps.db.entities.oauthCode.get({ digest: sha256(code) }).go()).data;
    const { access_token, refresh_token } = await exchange(publicClient, code, verifier);
    const asked = await askConsent(
      deps,
      { response_type: 'code', client_id: publicClient, redirect_uri: redirectUri, state: 's', code_challenge: pkce().challenge },
      { digest: 'session-digest', userId: user.userId },
    );
    const ticket = 'page' in asked ? asked.page.ticket : '';
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const refreshRecord = (await deps.db.entities.oauthRefreshToken.get({ digest: sha256(refresh_token!) }).go()).data;
    expect(refreshRecord?.ttl).toBe(Math.floor(Date.parse(refreshRecord!.expiresAt) / 1000));
    expect((await deps.db.entities.oauthConsent.get({ digest: sha256(ticket) }).go()).data?.ttl).toBeGreaterThan(
      clock.now().getTime() / 1000,
    );
    const tokenRecord = (await deps.db.entities.oauthToken.get({ digest: sha256(access_token) }).go()).data;
    const clientRecord = (await deps.db.entities.oauthClient.get({ id: confidential.clientId }).go()).data;
    expect(codeRecord?.ttl).toBe(Math.floor(Date.parse(codeRecord!.expiresAt) / 1000));
    expect(tokenRecord?.ttl).toBe(Math.floor(Date.parse(tokenRecord!.expiresAt) / 1000));
    expect(clientRecord?.secretDigest).toBe(sha256(confidential.clientSecret));

    const client = createDocumentClient({ AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT });
    const { Items } = await client.send(new ScanCommand({ TableName: deps.tableName }));
    const stored = JSON.stringify(Items);
    for (const secret of [code, access_token, refresh_token!, ticket, confidential.clientSecret]) expect(stored).not.toContain(secret);
    client.destroy();
  });
});

/** A token pair of the code grant, for the public client. */
async function codePair(scope = 'workspaces:read api-keys:read') {
  const { verifier, challenge } = pkce();
  return exchange(publicClient, await codeFor(publicClient, challenge, { scope }), verifier);
}

/** Holds each read of a refresh token until `count` of them have been made; `restore` puts the entity's own `get` back. */
function readsTogether(count: number) {
  const entity = deps.db.entities.oauthRefreshToken;
  const own = entity.get;
  let arrived = 0;
  let release = () => {};
  const all = new Promise<void>((done) => (release = done));
  entity.get = ((key: Parameters<typeof own>[0]) => {
    const read = own.call(entity, key);
    const go = read.go.bind(read);
    read.go = (async (options?: Parameters<typeof go>[0]) => {
      const result = await go(options);
      if (++arrived === count) release();
      await all;
      return result;
    }) as typeof go;
    return read;
  }) as typeof own;
  return { restore: () => void (entity.get = own) };
}

const refresh = (refreshToken: string, extra: OAuthParameters = {}) =>
  issueToken(deps, { grant_type: 'refresh_token', client_id: publicClient, refresh_token: refreshToken, ...extra });

const works = async (accessToken: string) =>
  await authenticateOAuth(deps, accessToken).then(
    () => true,
    () => false,
  );

describe('refresh tokens', () => {
  it('rotates: a refresh token buys a new pair once, and the new refresh token goes on', async () => {
    const first = await codePair();
    const second = await refresh(first.refresh_token!);
    expect(second).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      refresh_token: expect.any(String),
      scope: 'workspaces:read api-keys:read',
    });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await works(second.access_token)).toBe(true);
    const third = await refresh(second.refresh_token!, { scope: 'workspaces:read' });
    expect(third.scope).toBe('workspaces:read');
    const wider = await errorOf(refresh(third.refresh_token!, { scope: 'workspaces:read workspaces:write' }));
    expect(wider.code).toBe('invalid_scope');
  });

  it('revokes the whole family when a used refresh token comes back: every access and refresh token of the authorization', async () => {
    const first = await codePair();
    const second = await refresh(first.refresh_token!);
    const unrelated = await codePair();
    const reused = await errorOf(refresh(first.refresh_token!));
    expect([reused.status, reused.code]).toEqual([400, 'invalid_grant']);
    expect(await works(first.access_token)).toBe(false);
    expect(await works(second.access_token)).toBe(false);
    expect((await errorOf(refresh(second.refresh_token!))).code).toBe('invalid_grant');
    expect(await works(unrelated.access_token)).toBe(true);
  });

  it('lets one of two simultaneous uses of a refresh token win; the other is refused and the family goes on', async () => {
    const first = await codePair();
    // Simultaneous as the rule means it: both read the token before either rotates it. A use that
    // reads it after the rotation is reuse, and revokes the family (the test above).
    const together = readsTogether(2);
    const outcomes = await Promise.allSettled([refresh(first.refresh_token!), refresh(first.refresh_token!)]).finally(together.restore);
    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as ApiError] : []));
    expect([won.length, lost.map((error) => error.code)]).toEqual([1, ['invalid_grant']]);
    expect(await works(won[0]!.access_token)).toBe(true);
    expect(await works(first.access_token)).toBe(true);
    const next = await refresh(won[0]!.refresh_token!);
    expect(await works(next.access_token)).toBe(true);
  });

  it("refuses another client's refresh token, an expired one, and gives client credentials none", async () => {
    const { refresh_token } = await codePair();
    const foreign = await errorOf(issueToken(deps, { grant_type: 'refresh_token', refresh_token: refresh_token!, ...secretForm }));
    expect(foreign.code).toBe('invalid_grant');
    clock.advance(refreshTokenLifetimeSeconds * 1000);
    expect((await errorOf(refresh(refresh_token!))).code).toBe('invalid_grant');
    const machine = await issueToken(deps, { grant_type: 'client_credentials', ...secretForm });
    expect(machine).not.toHaveProperty('refresh_token');
  });
});

describe('scopes asked within a grant, read by the scope grammar', () => {
  let broad: string;
  let aliased: string;
  beforeAll(async () => {
    const registered = (name: string, scopes: string[]) =>
      registerOAuthClient(deps, {
        name,
        ownerUserId: user.userId,
        workspaceId: user.workspaceId,
        redirectUris: [redirectUri],
        grants: ['authorization_code'],
        scopes,
        confidential: false,
      });
    broad = (await registered('Broad', ['*'])).clientId;
    aliased = (await registered('Key manager', ['keys:manage'])).clientId;
  });

  async function pairFor(clientId: string, scope: string) {
    const { verifier, challenge } = pkce();
    return exchange(clientId, await codeFor(clientId, challenge, { scope }), verifier);
  }
  const refreshOf = (clientId: string, refreshToken: string, scope: string) =>
    issueToken(deps, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken, scope });

  it('lets a refresh of a `*` grant ask for any scope, wildcard or alias the service knows, and nothing it does not', async () => {
    const { refresh_token } = await pairFor(broad, '*');
    const unknown = await errorOf(refreshOf(broad, refresh_token!, 'workspaces:read nothing:read'));
    expect([unknown.status, unknown.code]).toEqual([400, 'invalid_scope']);
    const read = await refreshOf(broad, refresh_token!, 'workspaces:read');
    expect(read.scope).toBe('workspaces:read');
    expect((await authenticateOAuth(deps, read.access_token)).scopes).toEqual(['workspaces:read']);
    for (const scope of ['*:read', 'keys:manage', 'workspaces:* api-keys:read']) {
      const { refresh_token: fresh } = await pairFor(broad, '*');
      expect((await refreshOf(broad, fresh!, scope)).scope).toBe(scope);
    }
  });

  it('narrows a wildcard or alias grant to what it covers, and refuses what it does not, leaving the refresh token unused', async () => {
    const reads = await refreshOf(broad, (await pairFor(broad, '*')).refresh_token!, '*:read');
    const beyond = await errorOf(refreshOf(broad, reads.refresh_token!, 'workspaces:read workspaces:write'));
    expect([beyond.status, beyond.code]).toEqual([400, 'invalid_scope']);
    expect((await refreshOf(broad, reads.refresh_token!, 'workspaces:read api-keys:read')).scope).toBe('workspaces:read api-keys:read');

    const keys = await pairFor(aliased, 'keys:manage');
    expect(keys.scope).toBe('keys:manage');
    expect((await errorOf(refreshOf(aliased, keys.refresh_token!, 'api-keys:read webhooks:read'))).code).toBe('invalid_scope');
    expect((await refreshOf(aliased, keys.refresh_token!, 'api-keys:read api-keys:delete')).scope).toBe('api-keys:read api-keys:delete');
  });
});

describe('client authentication: one method per request (RFC 6749 section 2.3)', () => {
  const basicOf = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  it('refuses HTTP Basic with a secret, or another client, in the form at the token endpoint; the same client id in both is one client', async () => {
    const basic = basicOf(confidential.clientId, confidential.clientSecret);
    for (const form of [
      { client_secret: confidential.clientSecret },
      secretForm,
      { client_id: publicClient },
      { client_secret: 'other' },
    ]) {
      const error = await errorOf(issueToken(deps, { grant_type: 'client_credentials', ...form }, basic));
      expect([error.status, error.code, error.extras.error_description]).toEqual([
        400,
        'invalid_request',
        expect.stringMatching(/HTTP Basic/),
      ]);
    }
    expect((await issueToken(deps, { grant_type: 'client_credentials', client_id: confidential.clientId }, basic)).token_type).toBe(
      'Bearer',
    );
  });

  it('leaves the refresh token unused when it refuses both methods at once', async () => {
    const { verifier, challenge } = pkce();
    const pair = await exchange(confidential.clientId, await codeFor(confidential.clientId, challenge), verifier, {
      client_secret: confidential.clientSecret,
    });
    const basic = basicOf(confidential.clientId, confidential.clientSecret);
    const both = await errorOf(issueToken(deps, { grant_type: 'refresh_token', refresh_token: pair.refresh_token, ...secretForm }, basic));
    expect([both.status, both.code]).toEqual([400, 'invalid_request']);
    const corrected = await issueToken(deps, { grant_type: 'refresh_token', refresh_token: pair.refresh_token }, basic);
    expect(await works(corrected.access_token)).toBe(true);
    expect(await works(pair.access_token)).toBe(true);
  });

  it('refuses the same at the revocation endpoint, revoking nothing', async () => {
    const pair = await codePair();
    const basic = basicOf(confidential.clientId, confidential.clientSecret);
    for (const form of [{ client_secret: confidential.clientSecret }, { client_id: publicClient }]) {
      const error = await errorOf(revokeOAuthToken(deps, { token: pair.access_token, ...form }, basic));
      expect([error.status, error.code]).toEqual([400, 'invalid_request']);
    }
    expect(await works(pair.access_token)).toBe(true);
  });
});

describe('a refused refresh leaves the refresh token unused (RFC 6749 section 5.2)', () => {
  let machineOnly: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    machineOnly = (await registerOAuthClient(deps, {
      name: 'Cron',
      ownerUserId: user.userId,
      workspaceId: user.workspaceId,
      redirectUris: [],
      grants: ['client_credentials'],
      scopes: ['workspaces:read'],
      confidential: true,
    })) as typeof machineOnly;
  });

  /** A pair of the code grant for the public client, or for the confidential one (whose refresh needs its secret). */
  async function pairOf(client: 'public' | 'confidential') {
    if (client === 'public') return { pair: await codePair(), auth: { client_id: publicClient } };
    const { verifier, challenge } = pkce();
    const pair = await exchange(confidential.clientId, await codeFor(confidential.clientId, challenge), verifier, {
      client_secret: confidential.clientSecret,
    });
    return { pair, auth: secretForm };
  }

  const unknownClient = 'client_01ARZ3NDEKTSV4RRFFQ69G5FAV';
  const refusals: [string, 'public' | 'confidential', (refreshToken: string) => OAuthParameters, number, string][] = [
    [
      'a scope beyond the grant',
      'public',
      (rt) => ({ client_id: publicClient, refresh_token: rt, scope: 'workspaces:read workspaces:write' }),
      400,
      'invalid_scope',
    ],
    [
      'a malformed scope',
      'public',
      (rt) => ({ client_id: publicClient, refresh_token: rt, scope: 'workspaces:read "api-keys:read' }),
      400,
      'invalid_scope',
    ],
    ['an unknown client', 'public', (rt) => ({ client_id: unknownClient, refresh_token: rt }), 400, 'invalid_client'],
    [
      'a public client sending a secret',
      'public',
      (rt) => ({ client_id: publicClient, client_secret: 'guess', refresh_token: rt }),
      400,
      'invalid_client',
    ],
    ['another client, authenticated', 'public', (rt) => ({ ...secretForm, refresh_token: rt }), 400, 'invalid_grant'],
    [
      'a client not registered for the grant',
      'public',
      (rt) => ({ client_id: machineOnly.clientId, client_secret: machineOnly.clientSecret, refresh_token: rt }),
      400,
      'unauthorized_client',
    ],
    [
      'a confidential client without its secret',
      'confidential',
      (rt) => ({ client_id: confidential.clientId, refresh_token: rt }),
      400,
      'invalid_client',
    ],
    [
      'a confidential client with a wrong secret',
      'confidential',
      (rt) => ({ client_id: confidential.clientId, client_secret: 'wrong', refresh_token: rt }),
      400,
      'invalid_client',
    ],
  ];

  it.each(refusals)(
    'after %s, the same refresh token still rotates once, and a reuse after that still revokes the family',
    async (_, client, refused, status, code) => {
      const { pair, auth } = await pairOf(client);
      const error = await errorOf(issueToken(deps, { grant_type: 'refresh_token', ...refused(pair.refresh_token!) }));
      expect([error.status, error.code]).toEqual([status, code]);
      expect(await works(pair.access_token)).toBe(true);

      const corrected = await issueToken(deps, { grant_type: 'refresh_token', ...auth, refresh_token: pair.refresh_token });
      expect(await works(corrected.access_token)).toBe(true);
      const reused = await errorOf(issueToken(deps, { grant_type: 'refresh_token', ...auth, refresh_token: pair.refresh_token }));
      expect(reused.code).toBe('invalid_grant');
      expect(await works(corrected.access_token)).toBe(false);
    },
  );
});

describe('revocation (RFC 7009)', () => {
  it('revokes an access token; a refresh token takes its family; the answer is the same for anything else', async () => {
    const pair = await codePair();
    await revokeOAuthToken(deps, { token: pair.access_token, client_id: publicClient }, undefined);
    expect(await works(pair.access_token)).toBe(false);
    const next = await codePair();
    await revokeOAuthToken(deps, { token: next.refresh_token, token_type_hint: 'refresh_token', client_id: publicClient }, undefined);
    expect(await works(next.access_token)).toBe(false);
    expect((await errorOf(refresh(next.refresh_token!))).code).toBe('invalid_grant');
    await expect(revokeOAuthToken(deps, { token: 'never-issued', client_id: publicClient }, undefined)).resolves.toBeUndefined();
  });

  it("leaves another client's token alone, and refuses a client that does not authenticate", async () => {
    const pair = await codePair();
    const basic = `Basic ${Buffer.from(`${confidential.clientId}:${confidential.clientSecret}`).toString('base64')}`;
    await revokeOAuthToken(deps, { token: pair.access_token }, basic);
    expect(await works(pair.access_token)).toBe(true);
    const wrong = await errorOf(
      revokeOAuthToken(deps, { token: pair.access_token, client_id: confidential.clientId, client_secret: 'wrong' }, undefined),
    );
    expect([wrong.status, wrong.code, wrong.headers['WWW-Authenticate']]).toEqual([401, 'invalid_client', expect.stringMatching(/^Basic/)]);
    expect((await errorOf(revokeOAuthToken(deps, { client_id: publicClient }, undefined))).code).toBe('invalid_request');
  });
});

describe('redirect_uri', () => {
  it('must match a registered one exactly', async () => {
    for (const near of [`${redirectUri}/`, redirectUri.toUpperCase(), `${redirectUri}?next=1`, redirectUri.replace('https', 'http')]) {
      const error = await errorOf(authorizeUrl(publicClient, pkce().challenge, { redirect_uri: near }));
      expect([near, error.code]).toEqual([near, 'invalid_client']);
    }
  });

  it('must be named when the client registered several', async () => {
    const { clientId } = await registerOAuthClient(deps, {
      name: 'Two homes',
      ownerUserId: user.userId,
      workspaceId: user.workspaceId,
      redirectUris: [redirectUri, 'https://other.example.com/cb'],
      grants: ['authorization_code'],
      scopes: ['workspaces:read'],
      confidential: false,
    });
    const error = await errorOf(authorizeUrl(clientId, pkce().challenge, { redirect_uri: undefined }));
    expect([error.status, error.code]).toEqual([400, 'invalid_request']);
    expect(
      (await authorizeUrl(clientId, pkce().challenge, { redirect_uri: 'https://other.example.com/cb' })).searchParams.get('code'),
    ).toBeTruthy();
  });
});

describe("the client's workspace", () => {
  it('is where a code grant token acts, whatever other workspaces the approving user has', async () => {
    const elsewhere = await createWorkspace(deps, user.userId, { name: 'Elsewhere' });
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, challenge, {}, { ...user, workspaceId: elsewhere.id });
    const { access_token } = await exchange(publicClient, code, verifier);
    expect((await authenticateOAuth(deps, access_token)).workspaceId).toBe(user.workspaceId);
  });
});

describe('client registration', () => {
  const valid = () => ({
    name: 'App',
    ownerUserId: user.userId,
    workspaceId: user.workspaceId,
    redirectUris: ['http://127.0.0.1:8080/cb'],
    grants: ['authorization_code' as const],
    scopes: ['workspaces:read'],
    confidential: false,
  });

  it('shows a secret to confidential clients only', async () => {
    expect(await registerOAuthClient(deps, valid())).toEqual({ clientId: expect.stringMatching(/^client_[0-9A-Z]{26}$/) });
    const withSecret = await registerOAuthClient(deps, { ...valid(), confidential: true });
    expect(withSecret.clientSecret).toMatch(/^[0-9A-Za-z]{48}$/);
  });

  it('refuses client credentials for a public client, bad redirect URIs and unknown scopes, naming each field', async () => {
    const error = await errorOf(
      registerOAuthClient(deps, {
        ...valid(),
        grants: ['authorization_code', 'client_credentials'],
        redirectUris: ['http://app.example.com/cb', 'https://app.example.com/cb#frag'],
        scopes: ['everything'],
      }),
    );
    expect(error.status).toBe(422);
    expect(Object.keys(error.extras.errors as object).sort()).toEqual(['grants', 'redirectUris.0', 'redirectUris.1', 'scopes.0']);
  });

  it('refuses an owner who is not a member of the workspace', async () => {
    const stranger = await createUser(deps, { name: 'Stan', email: 'stan@example.com', tier: 'free' });
    expect((await errorOf(registerOAuthClient(deps, { ...valid(), ownerUserId: stranger.id }))).status).toBe(404);
  });
});
