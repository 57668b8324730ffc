import { joinAsMember, registerVerified } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as } from '../support/sessions.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const password = 'members only please';
const bootstrap = () => api.runner.bootstrap!;

async function addMember(body: Record<string, unknown>, options: { key?: string; headers?: Record<string, string> } = {}) {
  return api.call('POST', '/users', { ...options, body });
}

describe('the current user', () => {
  it('GET /user answers the authenticated user with an integer id', async () => {
    const me = await api.call('GET', '/user');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: bootstrap().userId, email: bootstrap().email, name: 'Admin' });
    expect(Number.isInteger(me.body.data.id)).toBe(true);
    expect(me.body.data).not.toHaveProperty('password');
    expect(me.body.data).not.toHaveProperty('password_hash');
  });
});

describe('members', () => {
  it('lists the members of the current workspace with their roles', async () => {
    await joinAsMember(api, undefined, { name: 'Mia', email: 'mia@example.com', password });
    const listed = await api.call('GET', '/users');
    expect(listed.status).toBe(200);
    const byEmail = Object.fromEntries(listed.body.data.map((m: { email: string; role: string }) => [m.email, m.role]));
    expect(byEmail).toMatchObject({ [bootstrap().email]: 'owner', 'mia@example.com': 'member' });
    expect(listed.body.meta.total).toBe(listed.body.data.length);
  });

  it('lets owners and admins invite, and refuses a member with 403', async () => {
    const ada = (await joinAsMember(api, undefined, { name: 'Ada', email: 'ada@example.com', password, role: 'admin' })).session;
    const mo = (await joinAsMember(api, undefined, { name: 'Mo', email: 'mo@example.com', password })).session;
    const inHere = { headers: { 'X-Workspace-ID': bootstrap().workspaceId } };

    const byAdmin = await api.call('POST', '/users', as(ada, { ...inHere, body: { email: 'by-admin@example.com' } }));
    expect(byAdmin.status).toBe(202);
    const byMember = await api.call('POST', '/users', as(mo, { ...inHere, body: { email: 'by-member@example.com' } }));
    expect(byMember.status).toBe(403);
    expect(byMember.body.error).toBe('access_denied');
    // Nobody became a member or got an account by being invited.
    const emails = (await api.call('GET', '/users?per_page=100')).body.data.map((m: { email: string }) => m.email);
    expect(emails).not.toContain('by-admin@example.com');
    expect(
      (await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email: 'by-admin@example.com', password } })).status,
    ).toBe(401);
  });

  it('answers 409 DUPLICATE_RESOURCE for a member who is already there', async () => {
    await joinAsMember(api, undefined, { name: 'Dup', email: 'dup@example.com', password });
    const again = await addMember({ email: 'DUP@example.com' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict', error_code: 'DUPLICATE_RESOURCE', conflicting_field: 'email' });
    const asAdmin = await addMember({ email: 'dup@example.com', role: 'admin' });
    expect(asAdmin.status).toBe(409);
    const entries = (await api.call('GET', '/users?per_page=100')).body.data.filter(
      (m: { email: string }) => m.email === 'dup@example.com',
    );
    expect(entries).toEqual([expect.objectContaining({ role: 'member' })]);
  });
});

describe('PATCH /users/{user_id}', () => {
  it('lets a user change their own name at once', async () => {
    const { userId, session } = await registerVerified(api, { name: 'Sam', email: 'sam@example.com', password });
    const patched = await api.call('PATCH', `/users/${userId}`, as(session, { body: { name: 'Samuel' } }));
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: userId, name: 'Samuel', email: 'sam@example.com' });
    expect((await api.call('GET', '/user', as(session))).body.data).toMatchObject({ name: 'Samuel' });
  });

  it('lets neither an owner change a member nor a member change the owner (403)', async () => {
    const val = await joinAsMember(api, undefined, { name: 'Val', email: 'val@example.com', password });
    const byOwner = await api.call('PATCH', `/users/${val.userId}`, { body: { name: 'Valentina' } });
    expect(byOwner.status).toBe(403);
    const byMember = await api.call('PATCH', `/users/${bootstrap().userId}`, as(val.session, { body: { name: 'Pwned' } }));
    expect(byMember.status).toBe(403);
    expect((await api.call('GET', '/user')).body.data.name).toBe('Admin');
    expect((await api.call('GET', '/user', as(val.session))).body.data.name).toBe('Val');
  });

  it('answers 404 for a user who shares no workspace with the caller, exactly as for one who does not exist', async () => {
    const otto = await registerVerified(api, { name: 'Otto', email: 'otto@example.com', password });
    const foreign = await api.call('PATCH', `/users/${otto.userId}`, { body: { name: 'Hijacked' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: 'not_found', error_code: 'RESOURCE_NOT_FOUND', resource_type: 'user' });
    const missing = await api.call('PATCH', '/users/987654321', { body: { name: 'Hijacked' } });
    expect(missing.status).toBe(404);
    expect(missing.body.resource_type).toBe(foreign.body.resource_type);
    expect((await api.call('GET', '/user', as(otto.session))).body.data.name).toBe('Otto');
  });

  it('invites an existing account instead of adding it, and it joins only by accepting', async () => {
    const ivy = (await registerVerified(api, { name: 'Ivy', email: 'ivy@example.com', password })).session;
    const invited = await addMember({ email: 'ivy@example.com', role: 'admin' });
    expect(invited.status).toBe(202);
    expect(invited.body.data).toEqual({
      email: 'ivy@example.com',
      role: 'admin',
      workspace_id: bootstrap().workspaceId,
      status: 'invited',
      expires_at: expect.any(String),
    });
    expect(JSON.stringify((await api.call('GET', '/users?per_page=100')).body)).not.toContain('ivy@example.com');
    const waiting = await api.call('GET', '/user/invitations', as(ivy));
    expect(waiting.body.data).toEqual([
      {
        workspace_id: invited.body.data.workspace_id,
        workspace_name: expect.any(String),
        role: 'admin',
        created_at: expect.any(String),
        expires_at: expect.any(String),
      },
    ]);
    // Joining a workspace is a write to the account: a read-only key of Ivy's cannot do it.
    const readOnly = await api.call('POST', '/api-keys', as(ivy, { body: { name: 'reader', scopes: ['workspaces:read'] } }));
    const refused = await api.call('POST', `/user/invitations/${invited.body.data.workspace_id}/accept`, { key: readOnly.body.data.key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: 'INSUFFICIENT_PERMISSIONS', required_scope: 'users:write' });
    const joined = await api.call('POST', `/user/invitations/${invited.body.data.workspace_id}/accept`, as(ivy));
    expect(joined.status).toBe(200);
    expect(joined.body.data).toMatchObject({ id: invited.body.data.workspace_id, role: 'admin' });
    expect((await api.call('GET', '/user/invitations', as(ivy))).body.data).toEqual([]);
    expect((await api.call('POST', `/user/invitations/${invited.body.data.workspace_id}/accept`, as(ivy))).status).toBe(404);
    const members = (await api.call('GET', '/users?per_page=100')).body.data;
    expect(members.find((m: { email: string }) => m.email === 'ivy@example.com')?.role).toBe('admin');
  });

  it('lets an invited user decline', async () => {
    const dee = (await registerVerified(api, { name: 'Dee', email: 'dee@example.com', password })).session;
    const invited = await addMember({ email: 'dee@example.com' });
    expect((await api.call('DELETE', `/user/invitations/${invited.body.data.workspace_id}`, as(dee))).status).toBe(204);
    expect((await api.call('POST', `/user/invitations/${invited.body.data.workspace_id}/accept`, as(dee))).status).toBe(404);
  });
});
