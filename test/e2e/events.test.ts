import { eventTypeNames } from '#core/events/event-types';
import type { Deps } from '#core/ports/deps';
import { typedEnvelopes } from '../../functions/event-payloads.ts';
import { linkIn, mailTo, pressLink, verifyByMail } from '../support/accounts.ts';
import { startTestApiWithDeps, type TestApi } from '../support/local-api.ts';
import { as, type Credential, login, register } from '../support/sessions.ts';

/**
 * Every mutation over HTTP, then the table read: each wrote exactly one event of its type
 * (a few, two), in the right workspace and environment, whose `data` is what the API
 * answered; and a mutation refused by a condition wrote none.
 */

let api: TestApi & { deps: Deps };
const seen = new Set<string>();
const typesSeen = new Set<string>();

beforeAll(async () => {
  api = await startTestApiWithDeps();
});
afterAll(() => api.stop());

interface Recorded {
  type: string;
  workspace: string;
  environment: string;
  data: unknown;
}

/** The events written since the last call, oldest first, each envelope checked against its type's schema. */
async function newEvents(): Promise<Recorded[]> {
  const { data } = await api.deps.db.entities.webhookEvent.scan.go({ pages: 'all' });
  const fresh = data
    .filter((item) => !seen.has(item.id))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return fresh.map((item) => {
    seen.add(item.id);
    typesSeen.add(item.type);
    const envelope = JSON.parse(item.body);
    expect(envelope).toMatchObject({ id: item.id, type: item.type, workspace_id: item.workspaceId, created_at: item.createdAt });
    const parsed = typedEnvelopes[item.type as keyof typeof typedEnvelopes].safeParse(envelope);
    if (!parsed.success) throw new Error(`${item.type}'s envelope does not match its schema: ${parsed.error.message}`);
    return { type: item.type, workspace: item.workspaceId, environment: item.environment, data: envelope.data };
  });
}

const live = (type: string, workspace: string, data: unknown): Recorded => ({ type, workspace, environment: 'live', data });
const test = (type: string, workspace: string, data: unknown): Recorded => ({ type, workspace, environment: 'test', data });

/** `data` of a created key: the answer without the key. */
const withoutSecret = ({ key: _key, ...rest }: Record<string, unknown>) => rest;

const bootstrap = () => api.runner.bootstrap!;
const password = 'events all the way';

describe('events of mutations', () => {
  let workspaceId: string;
  let testKey: string;

  it('bootstrap reported its workspace and key (a new account belongs to no workspace yet: no user.created)', async () => {
    const events = await newEvents();
    const { workspaceId: home } = bootstrap();
    expect(events.map((e) => [e.type, e.workspace, e.environment])).toEqual([
      ['workspace.created', home, 'live'],
      ['api_key.created', home, 'live'],
    ]);
    expect(events[0]!.data).toEqual((await api.call('GET', `/workspaces/${home}`)).body.data);
  });

  it('workspaces: created, updated (not by a test key), and a duplicate slug writes nothing', async () => {
    const created = await api.call('POST', '/workspaces', { body: { name: 'Evented', slug: 'evented' } });
    expect(created.status).toBe(201);
    workspaceId = created.body.data.id;
    // Its own event, and one to the workspace the request acted in, whose endpoints exist already.
    const createdEvents = await newEvents();
    expect(createdEvents).toHaveLength(2);
    expect(createdEvents).toEqual(
      expect.arrayContaining([
        live('workspace.created', workspaceId, created.body.data),
        live('workspace.created', bootstrap().workspaceId, created.body.data),
      ]),
    );

    const duplicate = await api.call('POST', '/workspaces', { body: { name: 'Again', slug: 'evented' } });
    expect(duplicate.status).toBe(409);
    expect(await newEvents()).toEqual([]);

    const updated = await api.call('PATCH', `/workspaces/${workspaceId}`, { body: { name: 'Evented, renamed' } });
    expect(updated.status).toBe(200);
    expect(await newEvents()).toEqual([live('workspace.updated', workspaceId, updated.body.data)]);

    const keyed = await api.call('POST', '/api-keys', {
      body: { name: 'test key', environment: 'test', workspace_id: workspaceId, scopes: ['*'] },
    });
    expect(keyed.status).toBe(201);
    testKey = keyed.body.data.key;
    // Made with a live key: a live event, whatever the new key's environment.
    expect(await newEvents()).toEqual([live('api_key.created', workspaceId, withoutSecret(keyed.body.data))]);

    // A test key cannot change a live workspace: refused, and nothing written.
    const byTestKey = await api.call('PATCH', `/workspaces/${workspaceId}`, {
      key: testKey,
      body: { settings: { timezone: 'Europe/Berlin' } },
    });
    expect(byTestKey.status).toBe(403);
    expect(await newEvents()).toEqual([]);
    const byLiveKey = await api.call('PATCH', `/workspaces/${workspaceId}`, { body: { settings: { timezone: 'Europe/Berlin' } } });
    expect(await newEvents()).toEqual([live('workspace.updated', workspaceId, byLiveKey.body.data)]);
  });

  it('API keys: created, rotated (once of two racing rotations) and revoked, by a test key', async () => {
    const created = await api.call('POST', '/api-keys', { key: testKey, body: { name: 'made in test', scopes: ['*'] } });
    expect(created.status).toBe(201);
    expect(await newEvents()).toEqual([test('api_key.created', workspaceId, withoutSecret(created.body.data))]);

    const rotations = await Promise.all(
      [0, 1].map(() => api.call('POST', `/api-keys/${created.body.data.id}/rotate`, { key: testKey, body: { grace_period_hours: 1 } })),
    );
    expect(rotations.map((r) => r.status).sort()).toEqual([200, 409]);
    const rotated = rotations.find((r) => r.status === 200)!;
    expect(await newEvents()).toEqual([test('api_key.rotated', workspaceId, withoutSecret(rotated.body.data))]);

    const before = (await api.call('GET', `/api-keys/${rotated.body.data.id}`, { key: testKey })).body.data;
    expect((await api.call('DELETE', `/api-keys/${rotated.body.data.id}`, { key: testKey })).status).toBe(204);
    // The key as it was, saying what became of it.
    const revoked = { ...before, status: 'revoked', revoked_at: expect.any(String) };
    expect(await newEvents()).toEqual([test('api_key.revoked', workspaceId, revoked)]);
    expect((await api.call('DELETE', `/api-keys/${rotated.body.data.id}`, { key: testKey })).status).toBe(404);
    expect(await newEvents()).toEqual([]);
  });

  let ada: { userId: number; session: Credential; personal: string };

  it('accounts: registered, verified, renamed, email changed, password changed; their events go to the personal workspace', async () => {
    expect((await register(api, { name: 'Ada', email: 'ada@example.com', password })).status).toBe(202);
    const [workspaceCreated, ...rest] = await newEvents();
    expect(rest).toEqual([]);
    const { session } = await login(api, 'ada@example.com', password);
    const me = (await api.call('GET', '/user', as(session))).body.data;
    const personal = (await api.call('GET', '/workspaces', as(session))).body.data[0].id;
    ada = { userId: me.id, session, personal };
    expect(workspaceCreated).toEqual(
      live('workspace.created', personal, (await api.call('GET', `/workspaces/${personal}`, as(session))).body.data),
    );

    await verifyByMail(api, 'ada@example.com');
    expect(await newEvents()).toEqual([live('user.updated', personal, (await api.call('GET', '/user', as(session))).body.data)]);

    const renamed = await api.call('PATCH', `/users/${me.id}`, as(session, { body: { name: 'Ada L.' } }));
    expect(renamed.status).toBe(200);
    expect(await newEvents()).toEqual([live('user.updated', personal, renamed.body.data)]);

    expect(
      (await api.call('PATCH', `/users/${me.id}`, as(session, { body: { email: 'ada.l@example.com', current_password: password } })))
        .status,
    ).toBe(200);
    expect(await newEvents()).toEqual([]); // not until the new address confirms
    const confirm = linkIn(await mailTo(api, 'ada.l@example.com'), /\/email\/change\//);
    expect((await pressLink(api, confirm)).status).toBe(200);
    expect(await newEvents()).toEqual([live('user.updated', personal, (await api.call('GET', '/user', as(session))).body.data)]);

    const changed = await api.call(
      'PUT',
      '/user/password',
      as(session, { body: { current_password: password, password: `${password}!` } }),
    );
    expect(changed.status).toBe(200);
    const [passwordEvent, ...none] = await newEvents();
    expect(none).toEqual([]);
    expect(passwordEvent).toEqual(live('user.updated', personal, (await api.call('GET', '/user', as(session))).body.data));
    expect(JSON.stringify(passwordEvent)).not.toContain(password);

    expect((await api.call('POST', `${api.runner.origin}/forgot-password`, { key: '', body: { email: 'ada.l@example.com' } })).status).toBe(
      202,
    );
    expect(await newEvents()).toEqual([]);
    const reset = new URL(linkIn(await mailTo(api, 'ada.l@example.com'), /\/reset-password\//));
    const token = reset.pathname.split('/').at(-1)!;
    const body = { token, email: 'ada.l@example.com', password };
    expect((await api.call('POST', `${api.runner.origin}/reset-password`, { key: '', body })).status).toBe(200);
    const { session: again } = await login(api, 'ada.l@example.com', password);
    ada.session = again;
    expect(await newEvents()).toEqual([live('user.updated', personal, (await api.call('GET', '/user', as(again))).body.data)]);
  });

  it("user tokens: a person's own credentials, like sessions, created and revoked without events", async () => {
    const created = await api.call('POST', '/user/tokens', as(ada.session, { body: { name: 'cli' } }));
    expect(created.status).toBe(201);
    expect((await api.call('DELETE', `/user/tokens/${created.body.data.id}`, as(ada.session))).status).toBe(204);
    expect(await newEvents()).toEqual([]);
  });

  it('members: invited (with and without an account), accepted, declined', async () => {
    const home = bootstrap().workspaceId;
    const invited = await api.call('POST', '/users', { body: { email: 'ada.l@example.com', role: 'admin' } });
    expect(invited.status).toBe(202);
    expect(await newEvents()).toEqual([live('invitation.created', home, invited.body.data)]);
    const pending = await api.call('POST', '/users', { body: { email: 'nobody-yet@example.com' } });
    expect(await newEvents()).toEqual([live('invitation.created', home, pending.body.data)]);

    expect((await api.call('POST', `/user/invitations/${home}/accept`, as(ada.session))).status).toBe(200);
    const member = (await api.call('GET', '/users?per_page=100')).body.data.find((m: { id: number }) => m.id === ada.userId);
    expect(await newEvents()).toEqual([live('member.added', home, member)]);
    // Accepting again: nothing left to accept, nothing written.
    expect((await api.call('POST', `/user/invitations/${home}/accept`, as(ada.session))).status).toBe(404);
    expect(await newEvents()).toEqual([]);

    expect(
      (
        await api.call(
          'POST',
          '/users',
          as(ada.session, { headers: { 'X-Workspace-ID': ada.personal }, body: { email: bootstrap().email } }),
        )
      ).status,
    ).toBe(202);
    await newEvents();
    const invitation = (await api.call('GET', '/user/invitations')).body.data.find(
      (i: { workspace_id: string }) => i.workspace_id === ada.personal,
    );
    expect((await api.call('DELETE', `/user/invitations/${ada.personal}`)).status).toBe(204);
    expect(await newEvents()).toEqual([live('invitation.declined', ada.personal, invitation)]);
  });

  it('platform admin: tier, suspension, resumption and packages, live', async () => {
    const tiered = await api.call('PATCH', `/admin/workspaces/${ada.personal}`, { body: { tier: 'pro' } });
    expect(tiered.status).toBe(200);
    // The admin answer adds what only platform admins see: the suspension and the billing state.
    const {
      suspended_at: _at,
      suspended_reason: _reason,
      billing_status: _billing,
      unpaid_since: _since,
      ...asMembersSeeIt
    } = tiered.body.data;
    expect(await newEvents()).toEqual([live('workspace.updated', ada.personal, asMembersSeeIt)]);

    const suspended = await api.call('POST', `/admin/workspaces/${ada.personal}/suspend`, { body: { reason: 'unpaid' } });
    expect(suspended.status).toBe(200);
    expect(await newEvents()).toEqual([live('workspace.suspended', ada.personal, suspended.body.data)]);
    const resumed = await api.call('POST', `/admin/workspaces/${ada.personal}/resume`);
    expect(resumed.status).toBe(200);
    expect(await newEvents()).toEqual([live('workspace.resumed', ada.personal, resumed.body.data)]);

    const namespaceId = `ns_${workspaceId.slice('wks_'.length)}`;
    const granted = await api.call('POST', `/admin/namespaces/${namespaceId}/packages`, {
      body: { name: 'Boost', entitlements: { api_keys: 5 } },
    });
    expect(granted.status).toBe(201);
    const { entitlements: _standings, ...withPackages } = (await api.call('GET', `/namespaces/${namespaceId}`)).body.data;
    expect(withPackages.packages).toHaveLength(1);
    expect(await newEvents()).toEqual([live('namespace.updated', workspaceId, withPackages)]);
    expect((await api.call('DELETE', `/admin/namespaces/${namespaceId}/packages/${granted.body.data.id}`)).status).toBe(204);
    expect(await newEvents()).toEqual([live('namespace.updated', workspaceId, { ...withPackages, packages: [] })]);
  });

  it('platform admin: no event for what changes nothing; resuming an active workspace or suspending it again for the same reason is 409 STATE_CONFLICT', async () => {
    const resume = () => api.call('POST', `/admin/workspaces/${ada.personal}/resume`);
    const suspend = (reason: string) => api.call('POST', `/admin/workspaces/${ada.personal}/suspend`, { body: { reason } });
    const neverSuspended = await resume();
    expect([neverSuspended.status, neverSuspended.body]).toEqual([
      409,
      expect.objectContaining({ error: 'conflict', error_code: 'STATE_CONFLICT', current_state: 'active', requested_action: 'resume' }),
    ]);
    expect(await newEvents()).toEqual([]);

    const first = await suspend('unpaid');
    expect(await newEvents()).toEqual([live('workspace.suspended', ada.personal, first.body.data)]);
    const same = await suspend('unpaid');
    expect([same.status, same.body.current_state, same.body.requested_action]).toEqual([409, 'suspended', 'suspend']);
    expect(await newEvents()).toEqual([]);
    // A new reason is a change of the suspension: it goes on from when it began.
    const reworded = await suspend('unpaid: invoice 42');
    expect([reworded.status, reworded.body.data.suspended_at, reworded.body.data.suspended_reason]).toEqual([
      200,
      first.body.data.suspended_at,
      'unpaid: invoice 42',
    ]);
    expect(await newEvents()).toEqual([live('workspace.suspended', ada.personal, reworded.body.data)]);

    const resumed = await resume();
    expect(await newEvents()).toEqual([live('workspace.resumed', ada.personal, resumed.body.data)]);
    expect((await resume()).status).toBe(409);
    expect(await newEvents()).toEqual([]);
  });

  it('content: categories and posts through their lives, a batch, an SEO report; refusals write nothing', async () => {
    const headers = { 'X-Workspace-ID': workspaceId };
    const category = await api.call('POST', '/categories', { headers, body: { name: 'Evented' } });
    expect(await newEvents()).toEqual([live('category.created', workspaceId, category.body.data)]);
    const renamed = await api.call('PATCH', `/categories/${category.body.data.id}`, { headers, body: { name: 'Evented, renamed' } });
    expect(await newEvents()).toEqual([live('category.updated', workspaceId, renamed.body.data)]);

    const body = { title: 'Evented post', slug: 'evented-post', content: 'body', category_ids: [category.body.data.id] };
    const post = await api.call('POST', '/posts', { headers, body });
    expect(await newEvents()).toEqual([live('post.created', workspaceId, post.body.data)]);
    expect((await api.call('POST', '/posts', { headers, body })).status).toBe(409);
    expect(await newEvents()).toEqual([]);
    const id = post.body.data.id;
    const changed = await api.call('PATCH', `/posts/${id}`, { headers, body: { excerpt: 'Now with an excerpt' } });
    expect(await newEvents()).toEqual([live('post.updated', workspaceId, changed.body.data)]);
    const published = await api.call('POST', `/posts/${id}/publish`, { headers });
    expect(await newEvents()).toEqual([live('post.published', workspaceId, published.body.data)]);
    // Publishing again changes nothing and reports nothing.
    expect((await api.call('POST', `/posts/${id}/publish`, { headers })).status).toBe(200);
    expect(await newEvents()).toEqual([]);
    const archived = await api.call('POST', `/posts/${id}/archive`, { headers });
    expect(await newEvents()).toEqual([live('post.archived', workspaceId, archived.body.data)]);
    // Unpublishing to a draft is a change of the post, reported as one.
    const drafted = await api.call('PATCH', `/posts/${id}`, { headers, body: { status: 'draft' } });
    expect(await newEvents()).toEqual([live('post.updated', workspaceId, drafted.body.data)]);
    const before = (await api.call('GET', `/posts/${id}`, { headers })).body.data;
    expect((await api.call('DELETE', `/posts/${id}`, { headers })).status).toBe(204);
    expect(await newEvents()).toEqual([live('post.deleted', workspaceId, before)]);

    // A batch reports each of its changes, in the environment of its key.
    const batch = await api.call('POST', '/resources/batch', {
      key: testKey,
      body: {
        operations: [
          { action: 'create', data: { title: 'Batched', status: 'published' } },
          { action: 'create', data: {} },
        ],
      },
    });
    const made = batch.body.data[0].data;
    // One transaction's two events share their moment: their order among themselves is their ids'.
    const batched = await newEvents();
    expect(batched).toHaveLength(2);
    expect(batched).toEqual(expect.arrayContaining([test('post.created', workspaceId, made), test('post.published', workspaceId, made)]));

    const gone = (await api.call('GET', `/categories/${category.body.data.id}`, { headers })).body.data;
    expect((await api.call('DELETE', `/categories/${category.body.data.id}`, { headers })).status).toBe(204);
    expect(await newEvents()).toEqual([live('category.deleted', workspaceId, gone)]);

    const report = { url: 'https://example.com/evented', scores: { performance: 1, accessibility: 2, best_practices: 3, seo: 4 } };
    const reported = await api.call('POST', '/seo/report', { headers, body: report });
    expect(await newEvents()).toEqual([live('seo.report_created', workspaceId, reported.body.data)]);
  });

  it('a deleted workspace reports itself as it was, and nothing of what went with it', async () => {
    const before = (await api.call('GET', `/workspaces/${workspaceId}`)).body.data;
    expect((await api.call('DELETE', `/workspaces/${workspaceId}`)).status).toBe(204);
    const deleted = await newEvents();
    expect(deleted).toHaveLength(2);
    expect(deleted).toEqual(
      expect.arrayContaining([live('workspace.deleted', workspaceId, before), live('workspace.deleted', bootstrap().workspaceId, before)]),
    );
  });

  it('covered every type of the catalogue but the webhooks’ own', () => {
    expect(eventTypeNames.filter((type) => !type.startsWith('webhook.') && !typesSeen.has(type))).toEqual([]);
  });
});
