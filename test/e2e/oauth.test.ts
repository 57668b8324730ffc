import { createHash, randomBytes } from 'node:crypto';
import { registerOAuthClient } from '#core/oauth/clients';
import { startTestApiWithDeps, type ApiAnswer, type TestApi } from '../support/local-api.ts';

// Read by config() on first use, which is when the runner starts (beforeAll), not at import.
process.env.OAUTH_ENABLED = '1';

const redirectUri = 'http://127.0.0.1:9/callback';
let api: TestApi;
let sessionCookie: string;
let spa: string;
let backend: { clientId: string; clientSecret: string };

beforeAll(async () => {
  const started = await startTestApiWithDeps();
  api = started;
  const { userId, workspaceId, email, password } = api.runner.bootstrap!;
  const owner = { ownerUserId: userId, workspaceId };
  spa = (
    await registerOAuthClient(started.deps, {
      name: 'SPA',
      ...owner,
      redirectUris: [redirectUri],
      grants: ['authorization_code'],
      scopes: ['workspaces:read', 'api-keys:read'],
      confidential: false,
    })
  ).clientId;
  backend = (await registerOAuthClient(started.deps, {
    name: 'Backend',
    ...owner,
    redirectUris: [],
    grants: ['client_credentials'],
    scopes: ['workspaces:read'],
    confidential: true,
  })) as typeof backend;
  const login = await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email, password } });
  sessionCookie = login.headers.getSetCookie().find((c) => c.startsWith('session='))!.split(';')[0]!;
});
afterAll(() => api.stop());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** GET /oauth/authorize as the browser of the signed-in user (the client answers redirects, never follows them). */
function authorize(params: Record<string, string>, cookie = sessionCookie): Promise<ApiAnswer> {
  const url = new URL(`${api.runner.origin}/oauth/authorize`);
  for (const [name, value] of Object.entries({ response_type: 'code', client_id: spa, redirect_uri: redirectUri, state: 'xyz', ...params })) {
    url.searchParams.set(name, value);
  }
  return api.call('GET', url.href, { key: '', headers: cookie ? { Cookie: cookie } : {} });
}

async function token(form: Record<string, string>, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  return api.call('POST', `${api.runner.origin}/oauth/token`, {
    key: '',
    rawBody: new URLSearchParams(form).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/** The whole code flow: authorize with PKCE, then exchange the code with its verifier. */
async function codeFlowToken(scope?: string) {
  const { verifier, challenge } = pkce();
  const redirect = await authorize({ code_challenge: challenge, code_challenge_method: 'S256', ...(scope ? { scope } : {}) });
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
  return token({ grant_type: 'authorization_code', client_id: spa, code, redirect_uri: redirectUri, code_verifier: verifier });
}

describe('OAuth over HTTP', () => {
  it('authorizes the signed-in user with PKCE, redirects with a code, and the token it buys calls the API', async () => {
    const { verifier, challenge } = pkce();
    const redirect = await authorize({ code_challenge: challenge, code_challenge_method: 'S256', scope: 'workspaces:read' });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('xyz');

    const issued = await token({
      grant_type: 'authorization_code',
      client_id: spa,
      code: location.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(issued.headers.get('pragma')).toBe('no-cache');
    expect(issued.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number), scope: 'workspaces:read' });

    const workspaces = await api.call('GET', '/workspaces', { key: issued.body.access_token });
    expect(workspaces.status).toBe(200);
    expect(workspaces.body.data.map((w: { id: string }) => w.id)).toContain(api.runner.bootstrap!.workspaceId);
  });

  it('answers 403 with required_scope when the token lacks the scope', async () => {
    const issued = await codeFlowToken('api-keys:read');
    expect(issued.body.scope).toBe('api-keys:read');
    const refused = await api.call('GET', '/workspaces', { key: issued.body.access_token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error_code: 'INSUFFICIENT_PERMISSIONS',
      required_scope: 'workspaces:read',
      provided_scopes: ['api-keys:read'],
    });
  });

  it('issues client credentials tokens to a client authenticating with HTTP Basic', async () => {
    const basic = `Basic ${Buffer.from(`${backend.clientId}:${backend.clientSecret}`).toString('base64')}`;
    const issued = await token({ grant_type: 'client_credentials' }, { Authorization: basic });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: 'Bearer', scope: 'workspaces:read' });
    expect((await api.call('GET', '/workspaces', { key: issued.body.access_token })).status).toBe(200);
  });

  it('answers token endpoint refusals with the RFC 6749 error code in the envelope', async () => {
    const spent = await token({ grant_type: 'authorization_code', client_id: spa, code: 'not-a-code', redirect_uri: redirectUri, code_verifier: pkce().verifier });
    expect(spent.status).toBe(400);
    expect(spent.body).toMatchObject({ error: 'invalid_grant', error_code: 'INVALID_GRANT', error_description: expect.any(String) });
    const wrongSecret = await token({ grant_type: 'client_credentials', client_id: backend.clientId, client_secret: 'nope' });
    expect(wrongSecret.body.error).toBe('invalid_client');
    const json = await api.call('POST', `${api.runner.origin}/oauth/token`, { key: '', body: { grant_type: 'client_credentials' } });
    expect([json.status, json.body.error_code]).toEqual([400, 'INVALID_FORMAT']);    const overlong = await token({ grant_type: 'client_credentials', client_id: 'a'.repeat(3000), client_secret: 'x' });
    expect(overlong.status).toBeGreaterThanOrEqual(400);
    expect(overlong.status).toBeLessThan(500);
  });

  it('refuses to sign a user into a client of a workspace they are not a member of', async () => {
    const stranger = { name: 'Stranger', email: 'stranger@example.com', password: 'stranger password' };
    expect((await api.call('POST', `${api.runner.origin}/register`, { key: '', body: stranger })).status).toBe(202);
    const login = await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email: stranger.email, password: stranger.password } });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('session='))!.split(';')[0]!;
    const redirect = await authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' }, cookie);
    const location = new URL(redirect.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('sends authorization refusals back to a registered redirect_uri, and answers others itself', async () => {
    const noPkce = await authorize({});
    expect(noPkce.status).toBe(302);
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const foreign = await authorize({ code_challenge: pkce().challenge, redirect_uri: 'https://evil.example/cb' });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ error: 'invalid_client' });
    expect((await authorize({ code_challenge: pkce().challenge }, '')).status).toBe(401);
  });
});
