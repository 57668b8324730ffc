import { createHash, randomBytes } from 'node:crypto';
import { invite } from '#core/members/invitations';
import { registerOAuthClient } from '#core/oauth/clients';
import type { Deps } from '#core/ports/deps';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { type ApiAnswer, startTestApiWithDeps, type TestApi } from '../support/local-api.ts';

// Read by config() on first use, which is when the runner starts (beforeAll), not at import.
process.env.OAUTH_ENABLED = '1';

const redirectUri = 'http://127.0.0.1:9/callback';
let api: TestApi;
let deps: Deps;
let sessionCookie: string;
let spa: string;
let backend: { clientId: string; clientSecret: string };

beforeAll(async () => {
  const started = await startTestApiWithDeps();
  api = started;
  deps = started.deps;
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
  sessionCookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('session='))!
    .split(';')[0]!;
});
afterAll(() => api.stop());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** GET /oauth/authorize as the browser of the signed-in user (the client answers redirects, never follows them). */
function authorize(params: Record<string, string>, cookie = sessionCookie): Promise<ApiAnswer> {
  const url = new URL(`${api.runner.origin}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: spa,
    redirect_uri: redirectUri,
    state: 'xyz',
    ...params,
  })) {
    url.searchParams.set(name, value);
  }
  return api.call('GET', url.href, { key: '', headers: cookie ? { Cookie: cookie } : {} });
}

/** The one-time ticket in a consent page's form. */
const ticketOf = (page: ApiAnswer) => /name="consent_ticket" value="([^"]+)"/.exec(page.body)?.[1] ?? '';

/** The consent page's form, answered as the browser sends it: urlencoded, with the session cookie and no XSRF header. */
function answer(ticket: string, decision: 'allow' | 'deny', cookie = sessionCookie): Promise<ApiAnswer> {
  return api.call('POST', `${api.runner.origin}/oauth/authorize`, {
    key: '',
    rawBody: new URLSearchParams({ consent_ticket: ticket, decision }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** The signed-in user opens the authorization link, sees the consent page and presses a button. */
async function consent(params: Record<string, string>, decision: 'allow' | 'deny' = 'allow'): Promise<ApiAnswer> {
  const page = await authorize(params);
  if (page.status !== 200) throw new Error(`the authorization link answered ${page.status} ${JSON.stringify(page.body)}`);
  return answer(ticketOf(page), decision);
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
  const redirect = await consent({ code_challenge: challenge, code_challenge_method: 'S256', ...(scope ? { scope } : {}) });
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
  return token({ grant_type: 'authorization_code', client_id: spa, code, redirect_uri: redirectUri, code_verifier: verifier });
}

/** A code grant token of scope `*` for the bootstrap user (a platform admin), from a client registered for every scope. */
async function broadToken(): Promise<{ access_token: string; refresh_token: string; scope: string; client_id: string }> {
  const broad = await registerOAuthClient(deps, {
    name: 'Broad',
    ownerUserId: api.runner.bootstrap!.userId,
    workspaceId: api.runner.bootstrap!.workspaceId,
    redirectUris: [redirectUri],
    grants: ['authorization_code'],
    scopes: ['*'],
    confidential: false,
  });
  const { verifier, challenge } = pkce();
  const redirect = await consent({ client_id: broad.clientId, code_challenge: challenge });
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
  const issued = await token({
    grant_type: 'authorization_code',
    client_id: broad.clientId,
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
  expect(issued.body.scope).toBe('*');
  return { ...issued.body, client_id: broad.clientId };
}

describe('OAuth over HTTP', () => {
  it('shows the signed-in user a consent page first: the client, the scopes, Allow and Deny; never framed, scripted or cached', async () => {
    const page = await authorize({ code_challenge: pkce().challenge, scope: 'workspaces:read api-keys:read' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toContain('Authorize SPA?');
    expect(page.body).toContain('Read API keys <code>api-keys:read</code>');
    expect(page.body).toMatch(/<button type="submit" name="decision" value="allow">Allow<\/button>/);
    expect(page.body).toMatch(/<button type="submit" name="decision" value="deny">Deny<\/button>/);
    expect(ticketOf(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('takes no workspace from a workspace_id in the link: its query does not name one, so a stray one changes nothing', async () => {
    for (const workspaceId of ['nonsense', 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const page = await authorize({ code_challenge: pkce().challenge, workspace_id: workspaceId });
      expect({ workspaceId, status: page.status }).toEqual({ workspaceId, status: 200 });
      expect(ticketOf(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('authorizes the signed-in user with PKCE once they allow, redirects with a code, and the token it buys calls the API', async () => {
    const { verifier, challenge } = pkce();
    const redirect = await consent({ code_challenge: challenge, code_challenge_method: 'S256', scope: 'workspaces:read' });
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
    expect(issued.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      refresh_token: expect.any(String),
      scope: 'workspaces:read',
    });

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
    const spent = await token({
      grant_type: 'authorization_code',
      client_id: spa,
      code: 'not-a-code',
      redirect_uri: redirectUri,
      code_verifier: pkce().verifier,
    });
    expect(spent.status).toBe(400);
    expect(spent.body).toMatchObject({ error: 'invalid_grant', error_code: 'INVALID_GRANT', error_description: expect.any(String) });
    const wrongSecret = await token({ grant_type: 'client_credentials', client_id: backend.clientId, client_secret: 'nope' });
    expect(wrongSecret.body.error).toBe('invalid_client');
    const json = await api.call('POST', `${api.runner.origin}/oauth/token`, { key: '', body: { grant_type: 'client_credentials' } });
    expect([json.status, json.body.error_code]).toEqual([400, 'INVALID_FORMAT']);
    const overlong = await token({ grant_type: 'client_credentials', client_id: 'a'.repeat(3000), client_secret: 'x' });
    expect(overlong.status).toBeGreaterThanOrEqual(400);
    expect(overlong.status).toBeLessThan(500);
  });

  it('refuses to sign a user into a client of a workspace they are not a member of', async () => {
    const stranger = { name: 'Stranger', email: 'stranger@example.com', password: 'stranger password' };
    expect((await api.call('POST', `${api.runner.origin}/register`, { key: '', body: stranger })).status).toBe(202);
    const login = await api.call('POST', `${api.runner.origin}/login`, {
      key: '',
      body: { email: stranger.email, password: stranger.password },
    });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('session='))!
      .split(';')[0]!;
    const page = await authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' }, cookie);
    const location = new URL(page.headers.get('location')!);
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

  it('sends access_denied with the state when the user denies, and issues nothing', async () => {
    const redirect = await consent({ code_challenge: pkce().challenge, state: 'keep-me' }, 'deny');
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(redirectUri);
    expect([location.searchParams.get('error'), location.searchParams.get('state'), location.searchParams.get('code')]).toEqual([
      'access_denied',
      'keep-me',
      null,
    ]);
  });

  it('takes an answer once, only from the session the page was shown to, and never without the page', async () => {
    const page = await authorize({ code_challenge: pkce().challenge });
    const ticket = ticketOf(page);
    const other = await api.call('POST', `${api.runner.origin}/login`, {
      key: '',
      body: { email: api.runner.bootstrap!.email, password: api.runner.bootstrap!.password },
    });
    const otherCookie = other.headers
      .getSetCookie()
      .find((c) => c.startsWith('session='))!
      .split(';')[0]!;
    for (const cookie of [otherCookie, '']) {
      const refused = await answer(ticket, 'allow', cookie);
      expect([refused.status, refused.body.error, refused.body.message]).toEqual([
        400,
        'invalid_request',
        expect.stringMatching(/session/),
      ]);
    }
    // A forged form: the session cookie rides along, but a made-up ticket answers nothing.
    const forged = await answer('forged-ticket', 'allow');
    expect([forged.status, forged.body.error]).toEqual([400, 'invalid_request']);
    expect((await answer(ticket, 'allow')).status).toBe(302);
    const again = await answer(ticket, 'allow');
    expect([again.status, again.body.error]).toEqual([400, 'invalid_request']);
    const bad = await api.call('POST', `${api.runner.origin}/oauth/authorize`, {
      key: '',
      rawBody: 'consent_ticket=x&decision=maybe',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: sessionCookie },
    });
    expect([bad.status, bad.body.error]).toEqual([422, 'validation_failed']);
  });

  it("binds the token to its client's workspace: X-Workspace-ID, workspace_id and other ids cannot move it, and it mints nothing", async () => {
    const other = await api.call('POST', '/workspaces', { body: { name: 'Another of the same user' } });
    const otherId = other.body.data.id as string;
    const bearer = (await broadToken()).access_token;
    const home = await api.call('GET', '/api-keys', { key: bearer });
    expect(home.status).toBe(200);
    for (const [path, headers] of [
      ['/api-keys', { 'X-Workspace-ID': otherId }],
      [`/api-keys?workspace_id=${otherId}`, {}],
      ['/users', { 'X-Workspace-ID': otherId }],
    ] as const) {
      const refused = await api.call('GET', path, { key: bearer, headers });
      expect([path, refused.status, refused.body.error]).toEqual([path, 403, 'access_denied']);
    }
    expect((await api.call('GET', `/workspaces/${otherId}`, { key: bearer })).status).toBe(404);
    const listed = await api.call('GET', '/workspaces', { key: bearer });
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([api.runner.bootstrap!.workspaceId]);
    expect(listed.body.meta.total).toBe(1);
    for (const [method, path, body] of [
      ['POST', '/workspaces', { name: 'Escape hatch' }],
      ['POST', '/api-keys', { name: 'Outlives the token' }],
      [
        'PATCH',
        `/users/${api.runner.bootstrap!.userId}`,
        { email: 'client-owned@example.com', current_password: api.runner.bootstrap!.password },
      ],
    ] as const) {
      const refused = await api.call(method, path, { key: bearer, body });
      expect([path, refused.status, refused.body.error_code]).toEqual([path, 403, 'ACCESS_DENIED']);
    }
  });

  it('makes nothing that outlives it: it invites nobody, answers no invitation and uses no platform admin route', async () => {
    const bearer = (await broadToken()).access_token;
    const { userId, workspaceId } = api.runner.bootstrap!;
    const member = await createUser(deps, { name: 'Invitee', email: 'invitee@example.com', tier: 'free' });
    for (const email of [member.email, 'no-account-yet@example.com']) {
      const refused = await api.call('POST', '/users', { key: bearer, body: { email, role: 'admin' } });
      expect([email, refused.status, refused.body.error_code]).toEqual([email, 403, 'ACCESS_DENIED']);
      expect(refused.body.message).toMatch(/^An OAuth access token cannot invite people/);
    }
    const members = await api.call('GET', '/users', { key: bearer });
    expect(members.body.data.map((m: { email: string }) => m.email)).not.toContain(member.email);

    // An invitation of the token's user into a workspace the client has nothing to do with.
    const inviter = await createUser(deps, { name: 'Inviter', email: 'inviter@example.com', tier: 'pro' });
    const elsewhere = await createWorkspace(deps, inviter.id, { name: 'Elsewhere', tier: 'pro' });
    await invite(deps, { userId, workspaceId: elsewhere.id, role: 'member', invitedBy: inviter.id });
    for (const [method, path] of [
      ['GET', '/user/invitations'],
      ['POST', `/user/invitations/${elsewhere.id}/accept`],
      ['DELETE', `/user/invitations/${elsewhere.id}`],
    ] as const) {
      const refused = await api.call(method, path, { key: bearer });
      expect([path, refused.status, refused.body.error_code]).toEqual([path, 403, 'ACCESS_DENIED']);
    }
    const waiting = await api.call('GET', '/user/invitations');
    expect(waiting.body.data.map((i: { workspace_id: string }) => i.workspace_id)).toEqual([elsewhere.id]);

    // The bootstrap user is a platform admin, and `*` covers `admin:*`: still not from this token.
    for (const [method, path, body] of [
      ['PATCH', `/admin/workspaces/${elsewhere.id}`, { tier: 'enterprise' }],
      ['POST', `/admin/workspaces/${elsewhere.id}/suspend`, { reason: 'From an OAuth client' }],
      ['PATCH', `/admin/workspaces/${workspaceId}`, { tier: 'free' }],
    ] as const) {
      const refused = await api.call(method, path, { key: bearer, body });
      expect([path, refused.status, refused.body.error_code]).toEqual([path, 403, 'ACCESS_DENIED']);
      expect(refused.body.message).toMatch(/^An OAuth access token cannot use the platform admin's routes/);
    }
    const untouched = (await deps.db.entities.workspace.get({ id: elsewhere.id }).go()).data!;
    expect([untouched.tier, untouched.suspendedAt]).toEqual(['pro', undefined]);
  });

  it('refreshes with rotation, and a reused refresh token revokes every token of the authorization', async () => {
    const first = (await codeFlowToken('workspaces:read')).body;
    const second = await token({ grant_type: 'refresh_token', client_id: spa, refresh_token: first.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await api.call('GET', '/workspaces', { key: second.body.access_token })).status).toBe(200);
    const reused = await token({ grant_type: 'refresh_token', client_id: spa, refresh_token: first.refresh_token });
    expect([reused.status, reused.body.error]).toEqual([400, 'invalid_grant']);
    const revoked = await api.call('GET', '/workspaces', { key: second.body.access_token });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('leaves a refresh token unused when it refuses the refresh: the corrected retry rotates, and nothing is revoked', async () => {
    const first = (await codeFlowToken('workspaces:read')).body;
    const wider = await token({
      grant_type: 'refresh_token',
      client_id: spa,
      refresh_token: first.refresh_token,
      scope: 'workspaces:read api-keys:read',
    });
    expect([wider.status, wider.body.error]).toEqual([400, 'invalid_scope']);
    expect((await api.call('GET', '/workspaces', { key: first.access_token })).status).toBe(200);
    const retry = await token({ grant_type: 'refresh_token', client_id: spa, refresh_token: first.refresh_token });
    expect([retry.status, retry.body.scope]).toEqual([200, 'workspaces:read']);
    expect((await api.call('GET', '/workspaces', { key: retry.body.access_token })).status).toBe(200);
    expect((await api.call('GET', '/workspaces', { key: first.access_token })).status).toBe(200);
  });

  it('narrows a refresh to any scopes the grant covers by the scope grammar: `*` gives `workspaces:read`, never an unknown scope', async () => {
    const broad = await broadToken();
    const unknown = await token({
      grant_type: 'refresh_token',
      client_id: broad.client_id,
      refresh_token: broad.refresh_token,
      scope: 'workspaces:read nothing:read',
    });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'invalid_scope']);
    const narrowed = await token({
      grant_type: 'refresh_token',
      client_id: broad.client_id,
      refresh_token: broad.refresh_token,
      scope: 'workspaces:read',
    });
    expect([narrowed.status, narrowed.body.scope]).toEqual([200, 'workspaces:read']);
    expect((await api.call('GET', '/workspaces', { key: narrowed.body.access_token })).status).toBe(200);
    expect((await api.call('GET', '/api-keys', { key: narrowed.body.access_token })).status).toBe(403);
  });

  it('takes one client authentication per request (RFC 6749 section 2.3): HTTP Basic with a secret or another client in the form is invalid_request', async () => {
    const basic = { Authorization: `Basic ${Buffer.from(`${backend.clientId}:${backend.clientSecret}`).toString('base64')}` };
    const forms: Record<string, string>[] = [
      { client_secret: backend.clientSecret },
      { client_id: backend.clientId, client_secret: backend.clientSecret },
      { client_id: spa },
    ];
    for (const form of forms) {
      const refused = await token({ grant_type: 'client_credentials', ...form }, basic);
      expect([refused.status, refused.body.error]).toEqual([400, 'invalid_request']);
    }
    const sameClient = await token({ grant_type: 'client_credentials', client_id: backend.clientId }, basic);
    expect([sameClient.status, sameClient.body.scope]).toEqual([200, 'workspaces:read']);
  });

  it("revokes a token at the client's request (RFC 7009), answering 200 whatever it was", async () => {
    const pair = (await codeFlowToken('workspaces:read')).body;
    const revoke = (form: Record<string, string>) =>
      api.call('POST', `${api.runner.origin}/oauth/revoke`, {
        key: '',
        rawBody: new URLSearchParams(form).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    expect((await revoke({ token: pair.refresh_token, token_type_hint: 'refresh_token', client_id: spa })).status).toBe(200);
    expect((await api.call('GET', '/workspaces', { key: pair.access_token })).status).toBe(401);
    expect((await revoke({ token: 'nothing-like-it', client_id: spa })).status).toBe(200);
    const anonymous = await revoke({ token: pair.access_token });
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'invalid_client']);
    const tokenless = await revoke({ client_id: spa });
    expect([tokenless.status, tokenless.body.error]).toEqual([400, 'invalid_request']);
  });
});
