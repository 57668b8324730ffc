import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential, login, mintUserToken, register } from '../support/sessions.ts';

let api: TestApi;
let session: Credential;
const email = 'tara@example.com';
const password = 'tokens are personal';

beforeAll(async () => {
  api = await startTestApi();
  expect((await register(api, { name: 'Tara', email, password })).status).toBe(202);
  session = (await login(api, email, password)).session;
});
afterAll(() => api.stop());

const bearer = (token: string): Credential => ({ type: 'user_token', bearer: token });

describe('user tokens', () => {
  it('shows `<id>|<secret>` once on create; the list never shows the secret', async () => {
    const created = await api.call('POST', '/user/tokens', as(session, { body: { name: 'laptop', abilities: ['workspaces:read'] } }));
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data.token).toMatch(/^\d+\|[A-Za-z0-9]{40}$/);
    expect(data).toMatchObject({
      id: expect.any(Number),
      name: 'laptop',
      abilities: ['workspaces:read'],
      last_used_at: null,
      expires_at: null,
    });
    expect(data.token.split('|')[0]).toBe(String(data.id));
    const secret = data.token.split('|')[1];

    const listed = await api.call('GET', '/user/tokens', as(session));
    expect(listed.status).toBe(200);
    const entry = listed.body.data.find((t: { id: number }) => t.id === data.id);
    expect(entry).toMatchObject({ id: data.id, name: 'laptop', abilities: ['workspaces:read'] });
    expect(entry).not.toHaveProperty('token');
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });

  it('works as a Bearer credential and acts for its user', async () => {
    const { token } = await mintUserToken(api, session, { name: 'cli' });
    const me = await api.call('GET', '/user', as(bearer(token)));
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(email);
    const workspaces = await api.call('GET', '/workspaces', as(bearer(token)));
    expect(workspaces.status).toBe(200);
    expect(workspaces.body.data).toHaveLength(1);
  });

  it('needs users:read to read the own account and users:write to mint or revoke tokens', async () => {
    const wide = await mintUserToken(api, session, { name: 'everything', abilities: ['*'] });
    const { token: narrow } = await mintUserToken(api, session, { name: 'workspaces only', abilities: ['workspaces:read'] });
    for (const [method, path, scope] of [
      ['GET', '/user', 'users:read'],
      ['GET', '/user/tokens', 'users:read'],
      ['GET', '/user/invitations', 'users:read'],
      ['POST', '/user/tokens', 'users:write'],
      ['DELETE', `/user/tokens/${wide.id}`, 'users:write'],
    ] as const) {
      const answer = await api.call(method, path, as(bearer(narrow), method === 'POST' ? { body: { name: 'more' } } : {}));
      expect([path, answer.status, answer.body.required_scope]).toEqual([path, 403, scope]);
    }
    expect((await api.call('GET', '/user', as(bearer(wide.token)))).status).toBe(200);
  });

  it('enforces its abilities: 403 INSUFFICIENT_PERMISSIONS with required_scope for a scope it lacks', async () => {
    const { token } = await mintUserToken(api, session, { name: 'read only', abilities: ['workspaces:read'] });
    expect((await api.call('GET', '/workspaces', as(bearer(token)))).status).toBe(200);
    const write = await api.call('POST', '/workspaces', as(bearer(token), { body: { name: 'Nope' } }));
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({
      error: 'access_denied',
      error_code: 'INSUFFICIENT_PERMISSIONS',
      required_scope: 'workspaces:write',
      provided_scopes: ['workspaces:read'],
    });
    const listed = await api.call('GET', '/workspaces', as(session));
    expect(listed.body.data.map((w: { name: string }) => w.name)).not.toContain('Nope');
  });

  it('cannot mint a token with abilities it lacks (403), but can mint one within them', async () => {
    const abilities = ['workspaces:read', 'users:write'];
    const { token } = await mintUserToken(api, session, { name: 'narrow', abilities });
    const wider = await api.call('POST', '/user/tokens', as(bearer(token), { body: { name: 'wider', abilities: ['*'] } }));
    expect(wider.status).toBe(403);
    expect(wider.body.error).toBe('access_denied');
    const writer = await api.call('POST', '/user/tokens', as(bearer(token), { body: { name: 'writer', abilities: ['workspaces:write'] } }));
    expect(writer.status).toBe(403);

    const same = await api.call('POST', '/user/tokens', as(bearer(token), { body: { name: 'same' } }));
    expect(same.status).toBe(201);
    expect(same.body.data.abilities).toEqual(abilities);
    const names = (await api.call('GET', '/user/tokens', as(session))).body.data.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['narrow', 'same']));
    expect(names).not.toEqual(expect.arrayContaining(['wider']));
    expect(names).not.toEqual(expect.arrayContaining(['writer']));
  });

  it('refuses API keys on /user/tokens (403), whatever their scopes', async () => {
    for (const [method, path, body] of [
      ['POST', '/user/tokens', { name: 'from a key' }],
      ['GET', '/user/tokens', undefined],
      ['DELETE', '/user/tokens/1', undefined],
    ] as const) {
      const answer = await api.call(method, path, { body });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe('access_denied');
    }
  });

  it('is revoked by DELETE: 204, then its next use answers 401, and it leaves the list', async () => {
    const { id, token } = await mintUserToken(api, session, { name: 'to revoke' });
    expect((await api.call('GET', '/user', as(bearer(token)))).status).toBe(200);
    const deleted = await api.call('DELETE', `/user/tokens/${id}`, as(session));
    expect(deleted.status).toBe(204);
    const after = await api.call('GET', '/user', as(bearer(token)));
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('unauthorized');
    const listed = await api.call('GET', '/user/tokens', as(session));
    expect(listed.body.data.map((t: { id: number }) => t.id)).not.toContain(id);
    expect((await api.call('DELETE', `/user/tokens/${id}`, as(session))).status).toBe(404);
  });

  it('can revoke itself', async () => {
    const { id, token } = await mintUserToken(api, session, { name: 'self-destruct' });
    expect((await api.call('DELETE', `/user/tokens/${id}`, as(bearer(token)))).status).toBe(204);
    expect((await api.call('GET', '/user', as(bearer(token)))).status).toBe(401);
  });

  it('answers 401 for a token whose secret is wrong', async () => {
    const { id, token } = await mintUserToken(api, session, { name: 'guessed' });
    const secret = token.split('|')[1]!;
    const tampered = `${id}|${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    const answer = await api.call('GET', '/user', as(bearer(tampered)));
    expect(answer.status).toBe(401);
    expect((await api.call('GET', '/user', as(bearer(token)))).status).toBe(200);
  });

  it('answers 401 TOKEN_EXPIRED with meta.expired_at once past expires_at', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const { token, data } = await mintUserToken(api, session, { name: 'brief', expires_at: expiresAt });
    expect(data.expires_at).toBe(expiresAt);
    expect((await api.call('GET', '/user', as(bearer(token)))).status).toBe(200);
    await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 100));
    const answer = await api.call('GET', '/user', as(bearer(token)));
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'unauthorized', error_code: 'TOKEN_EXPIRED', meta: { expired_at: expiresAt } });
  });

  it('refuses an expires_at in the past with 422', async () => {
    const answer = await api.call('POST', '/user/tokens', as(session, { body: { name: 'past', expires_at: '2001-01-01T00:00:00Z' } }));
    expect(answer.status).toBe(422);
    expect(answer.body.errors.expires_at).toBeDefined();
  });
});
