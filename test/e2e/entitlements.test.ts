import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OwnedDeps } from '#core/adapters/create-deps';
import { defaultNamespaceId } from '#core/namespaces/ids';
import { monthOf } from '#core/platform/periods';
import { tiers } from '#core/platform/tiers';
import { meterKey } from '#core/store/meter-items';
import { joinAsMember, registerVerified } from '../support/accounts.ts';
import { depsOnTable } from '../support/deps.ts';
import { type ApiAnswer, startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential } from '../support/sessions.ts';

let api: TestApi;
let deps: OwnedDeps;
beforeAll(async () => {
  api = await startTestApi();
  deps = depsOnTable(api.runner.tableName);
});
afterAll(async () => {
  deps.close();
  await api.stop();
});

const password = 'correct horse battery staple';
const free = tiers.free.entitlements;

interface Tenant {
  session: Credential;
  workspaceId: string;
  liveKey: string;
  testKey: string;
}

/** A verified free-tier account with a live and a test key in its personal workspace. */
async function freeTenant(name: string): Promise<Tenant> {
  const { session } = await registerVerified(api, { name, email: `${name}@example.com`, password });
  const mint = async (environment: 'live' | 'test') => {
    const created = await api.call('POST', '/api-keys', as(session, { body: { name: `${name} ${environment}`, environment } }));
    expect(created.status).toBe(201);
    return created.body.data as { key: string; workspace_id: string };
  };
  const live = await mint('live');
  return { session, workspaceId: live.workspace_id, liveKey: live.key, testKey: (await mint('test')).key };
}

const summaryOf = async (key: string) => {
  const answer = await api.call('GET', '/entitlements/summary', { key });
  expect(answer.status).toBe(200);
  return answer.body.data.entitlements;
};

const ok201 = (answer: ApiAnswer) => expect([answer.status, answer.body?.error]).toEqual([201, undefined]);
const ok204 = (answer: ApiAnswer) => expect(answer.status).toBe(204);

/** Spends a free workspace's month (its one meter shard) straight in the table: `expression` sets or adds `:spent`. */
const spendCalls = (workspaceId: string, expression: string, spent: number) =>
  deps.client.send(
    new UpdateCommand({
      TableName: api.runner.tableName,
      Key: meterKey(workspaceId, 'live', monthOf(new Date()).key, 0),
      UpdateExpression: expression,
      ExpressionAttributeValues: { ':spent': spent },
    }),
  );

const record = (key: string, body: unknown) => api.call('POST', '/entitlements/usage', { key, body });

describe('entitlements', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await freeTenant('ent');
  });

  it('summarises every feature with used, limit, available, percentage, unit and a reset for monthly ones', async () => {
    const summary = await api.call('GET', '/entitlements/summary', { key: tenant.liveKey });
    expect(summary.status).toBe(200);
    expect(summary.body.data).toMatchObject({ workspace_id: tenant.workspaceId, tier: 'free', environment: 'live' });
    const { entitlements } = summary.body.data;
    // Every feature a workspace counts: `workspaces` is counted per user, in their own namespace.
    expect(Object.keys(entitlements).sort()).toEqual(
      Object.keys(free)
        .filter((f) => f !== 'workspaces')
        .sort(),
    );
    expect(entitlements.api_keys).toEqual({ used: 1, limit: free.api_keys, available: free.api_keys - 1, percentage: 20, unit: 'keys' });
    expect(entitlements.members).toMatchObject({ used: 1, limit: free.members });
    expect(entitlements.api_calls.used).toBeGreaterThanOrEqual(1);
    expect(entitlements.api_calls.reset_at).toBe(monthOf(new Date()).end.toISOString());
    expect(entitlements.storage.unit).toBe('bytes');
    expect(entitlements.storage.reset_at).toBeUndefined();
  });

  it('checks a quantity against what is left, and says why and where to upgrade when denied', async () => {
    const allowed = await api.call('GET', `/entitlements/check?feature=storage&quantity=${free.storage}`, { key: tenant.liveKey });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({
      allowed: true,
      feature: 'storage',
      current_usage: 0,
      limit: free.storage,
      available: free.storage,
    });
    const denied = await api.call('GET', `/entitlements/check?feature=storage&quantity=${free.storage + 1}`, { key: tenant.liveKey });
    expect(denied.body).toMatchObject({ allowed: false, reason: 'LIMIT_EXCEEDED', current_usage: 0, limit: free.storage });
    expect(denied.body.message).toMatch(/limit/);
    expect(denied.body.upgrade_url).toMatch(/^https:\/\//);
    // Bytes of storage run past nine digits.
    const large = await api.call('GET', '/entitlements/check?feature=storage&quantity=2000000000', { key: tenant.liveKey });
    expect(large.body).toMatchObject({ allowed: false, current_usage: 0, limit: free.storage });
    const one = await api.call('GET', '/entitlements/check?feature=posts', { key: tenant.liveKey });
    expect(one.body).toMatchObject({ allowed: true, current_usage: 0, available: free.posts });
  });

  it('refuses bad checks with 422 naming the parameter, and one without a feature with 400 MISSING_PARAMETER', async () => {
    for (const query of [
      'feature=nope',
      'feature=storage&quantity=0',
      'feature=storage&quantity=-1',
      'feature=storage&quantity=1e3',
      'feature=storage&quantity=10000000000000000',
    ]) {
      const answer = await api.call('GET', `/entitlements/check?${query}`, { key: tenant.liveKey });
      expect(answer.status).toBe(422);
      expect(Object.keys(answer.body.errors).length).toBeGreaterThan(0);
    }
    const missing = await api.call('GET', '/entitlements/check?quantity=2', { key: tenant.liveKey });
    expect([missing.status, missing.body.error_code, missing.body.errors]).toEqual([
      400,
      'MISSING_PARAMETER',
      { feature: ['is required'] },
    ]);
  });

  it('records usage atomically and refuses what would pass the limit with recorded false', async () => {
    const first = await record(tenant.liveKey, { feature: 'storage', quantity: 1000, metadata: { file: 'a.png' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      recorded: true,
      feature: 'storage',
      current_usage: 1000,
      limit: free.storage,
      metadata: { file: 'a.png' },
    });
    const over = await record(tenant.liveKey, { feature: 'storage', quantity: free.storage });
    expect(over.body).toMatchObject({ recorded: false, reason: 'LIMIT_EXCEEDED', current_usage: 1000 });
    const released = await record(tenant.liveKey, { feature: 'storage', quantity: -400 });
    expect(released.body).toMatchObject({ recorded: true, current_usage: 600 });
    const tooMuchBack = await record(tenant.liveKey, { feature: 'storage', quantity: -601 });
    expect(tooMuchBack.body).toMatchObject({ recorded: false, current_usage: 600 });
    expect((await summaryOf(tenant.liveKey)).storage.used).toBe(600);
  });

  it('refuses reports of what the service counts itself, and bad quantities', async () => {
    for (const body of [
      { feature: 'api_calls', quantity: 1 },
      { feature: 'api_keys', quantity: 1 },
      { feature: 'seo_reports', quantity: 1 },
      { feature: 'mcp_calls', quantity: 1 },
      { feature: 'storage', quantity: 0 },
      { feature: 'storage', quantity: 1.5 },
      { feature: 'storage', quantity: 1, extra: true },
      { feature: 'storage', quantity: 1, metadata: { blob: 'x'.repeat(5000) } },
    ]) {
      const answer = await record(tenant.liveKey, body);
      expect(answer.status).toBe(422);
    }
    // Nesting deeper than any body may go is malformed, refused where it passes the limit.
    const deep = `{"feature":"storage","quantity":1,"metadata":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const nested = await api.call('POST', '/entitlements/usage', { key: tenant.liveKey, rawBody: deep });
    expect(nested.status).toBe(400);
    expect(Object.keys(nested.body.errors)).toEqual([`metadata${'.a'.repeat(63)}`]);
  });

  it('keeps unlimited counts and package amounts within numbers held exactly', async () => {
    // The bootstrap workspace is enterprise: storage is unlimited.
    const quantity = 1e15;
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await record(api.adminKey, { feature: 'storage', quantity }));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.map((a) => a.body.recorded)).toEqual([...Array(9).fill(true), false]);
    expect((await summaryOf(api.adminKey)).storage).toMatchObject({ used: 9 * quantity, limit: null });
    expect((await record(api.adminKey, { feature: 'storage', quantity: -quantity })).body).toMatchObject({
      recorded: true,
      current_usage: 8 * quantity,
    });
    const namespaceId = defaultNamespaceId(api.runner.bootstrap!.workspaceId);
    const huge = await api.call('POST', `/admin/namespaces/${namespaceId}/packages`, {
      body: { name: 'Too much', entitlements: { api_calls: Number.MAX_SAFE_INTEGER } },
    });
    expect(huge.status).toBe(422);
  });

  it('never passes a limit however many reports race for it', async () => {
    // Storage of a tenant of its own (the shared one holds some already): ten tenths fit, the rest race in vain.
    const racer = await freeTenant('racer');
    const tenth = free.storage / 10;
    const answers = await Promise.all(Array.from({ length: 25 }, () => record(racer.liveKey, { feature: 'storage', quantity: tenth })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.recorded).length).toBe(10);
    expect((await summaryOf(racer.liveKey)).storage).toMatchObject({ used: free.storage, available: 0, percentage: 100 });
  });

  it('keeps test-mode usage apart from live usage', async () => {
    const fresh = await freeTenant('sandbox');
    expect((await record(fresh.testKey, { feature: 'storage', quantity: 7 })).body.recorded).toBe(true);
    expect((await summaryOf(fresh.testKey)).storage.used).toBe(7);
    expect((await summaryOf(fresh.liveKey)).storage.used).toBe(0);
  });
});

describe('limited things', () => {
  it('creates API keys up to the limit, racing or not, then answers 403 feature_limit_reached', async () => {
    const tenant = await freeTenant('keys');
    // One live key exists; the rest race.
    const answers = await Promise.all(
      Array.from({ length: free.api_keys + 3 }, (_, i) => api.call('POST', '/api-keys', as(tenant.session, { body: { name: `k${i}` } }))),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBe(free.api_keys - 1);
    const refused = answers.filter((a) => a.status !== 201);
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({
        error: 'feature_limit_reached',
        error_code: 'ENTITLEMENT_DENIED',
        feature: 'api_keys',
        limit: free.api_keys,
      });
      expect(answer.body.upgrade_url).toMatch(/^https:\/\//);
    }
    const listed = await api.call('GET', '/api-keys?per_page=100', as(tenant.session));
    expect(listed.body.data.filter((k: { environment: string }) => k.environment === 'live').length).toBe(free.api_keys);
    // Test keys count apart; a revoked key frees its place.
    expect((await api.call('POST', '/api-keys', as(tenant.session, { body: { name: 'sandbox', environment: 'test' } }))).status).toBe(201);
    expect((await api.call('DELETE', `/api-keys/${created[0]!.body.data.id}`, as(tenant.session))).status).toBe(204);
    expect((await api.call('POST', '/api-keys', as(tenant.session, { body: { name: 'again' } }))).status).toBe(201);
    // At the limit, one key may be rotated (one past it for the grace period), not a chain.
    const rotated = await api.call('POST', `/api-keys/${created[1]!.body.data.id}/rotate`, as(tenant.session, { body: {} }));
    expect(rotated.status).toBe(200);
    const chained = await api.call('POST', `/api-keys/${rotated.body.data.id}/rotate`, as(tenant.session, { body: {} }));
    expect(chained.status).toBe(403);
    expect(chained.body).toMatchObject({
      error: 'feature_limit_reached',
      feature: 'api_keys',
      limit: free.api_keys,
      current_usage: free.api_keys + 1,
    });
    // The rotated-out key ends with its grace period: then the pruning job frees its place.
  });

  it('invites members only below the limit, and two accepts cannot both take the last place', async () => {
    const owner = await freeTenant('crowd');
    const others = free.members - 1;
    for (let i = 0; i < others - 1; i++)
      await joinAsMember(api, owner.session, { name: `m${i}`, email: `crowd-m${i}@example.com`, password });
    // One place is left: two invited people race for it.
    const racers = await Promise.all(
      ['a', 'b'].map((n) => registerVerified(api, { name: `r${n}`, email: `crowd-r${n}@example.com`, password })),
    );
    for (const n of ['a', 'b']) {
      const invited = await api.call('POST', '/users', as(owner.session, { body: { email: `crowd-r${n}@example.com`, role: 'member' } }));
      expect(invited.status).toBe(202);
    }
    const accepts = await Promise.all(racers.map((r) => api.call('POST', `/user/invitations/${owner.workspaceId}/accept`, as(r.session))));
    expect(accepts.map((a) => a.status).sort()).toEqual([200, 403]);
    expect(accepts.find((a) => a.status === 403)!.body).toMatchObject({ error: 'feature_limit_reached', feature: 'members' });
    const full = await api.call('POST', '/users', as(owner.session, { body: { email: 'crowd-late@example.com', role: 'member' } }));
    expect(full.status).toBe(403);
    expect(full.body).toMatchObject({ feature: 'members', limit: free.members, current_usage: free.members });
  });
});

describe('the workspaces a user may own', () => {
  it('are counted per user at their tier (free: 3, the personal one included), racing creates too; a delete frees a place', async () => {
    const { session } = await registerVerified(api, { name: 'Owner', email: 'owner-of-many@example.com', password });
    const create = (name: string) => api.call('POST', '/workspaces', as(session, { body: { name } }));
    ok201(await create('second'));
    const racing = await Promise.all(['third a', 'third b', 'third c'].map(create));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    const refused = racing.find((r) => r.status === 403)!;
    expect(refused.body).toMatchObject({
      error: 'feature_limit_reached',
      feature: 'workspaces',
      limit: free.workspaces,
      current_usage: free.workspaces,
    });
    expect((await create('fourth')).status).toBe(403);

    // Counted in the user's own namespace, where a check of it is answered; a workspace's namespace does not count it.
    const personal = (await api.call('GET', '/namespaces?owner_type=User', as(session))).body.data[0].id;
    const own = await api.call('GET', `/entitlements/check?feature=workspaces`, as(session, { headers: { 'X-Namespace-ID': personal } }));
    expect(own.body).toMatchObject({ allowed: false, feature: 'workspaces', current_usage: free.workspaces, limit: free.workspaces });
    expect((await api.call('GET', `/namespaces/${personal}`, as(session))).body.data.entitlements.workspaces).toMatchObject({
      used: 3,
      limit: 3,
    });
    const elsewhere = await api.call('GET', '/entitlements/check?feature=workspaces', as(session));
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors.feature[0]).toContain('X-Namespace-ID');

    ok204(await api.call('DELETE', `/workspaces/${racing.find((r) => r.status === 201)!.body.data.id}`, as(session)));
    ok201(await create('after a delete'));
  });
});

describe('the monthly api_calls quota', () => {
  const limitHeaders = (answer: ApiAnswer) => answer.headers.get('x-ratelimit-limit');

  it('lets no request past a spent quota, however many race, and answers 429 QUOTA_EXCEEDED', async () => {
    const tenant = await freeTenant('quota');
    const month = monthOf(new Date());
    // Most of the month is spent already (the one shard of a free workspace): 5 calls remain.
    await spendCalls(tenant.workspaceId, 'ADD calls :spent', free.api_calls - 5 - 3); // GET /user and the two key creates are counted already
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.call('GET', `/workspaces/${tenant.workspaceId}`, { key: tenant.liveKey })),
    );
    expect(answers.filter((a) => a.status === 200).length).toBe(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBe(7);
    for (const answer of refused) {
      expect(answer.body).toMatchObject({
        error: 'quota_exceeded',
        error_code: 'QUOTA_EXCEEDED',
        quota_type: 'api_calls',
        limit: free.api_calls,
        used: free.api_calls,
      });
      expect(answer.body.reset_at).toBe(month.end.toISOString());
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limitHeaders(answer)).toBe('60');
    }
    // Test mode has its own count: the test key still works.
    expect((await api.call('GET', `/workspaces/${tenant.workspaceId}`, { key: tenant.testKey })).status).toBe(200);
  });
});

describe('the workspace a request acts in', () => {
  const usedIn = async (key: string, workspaceId: string) => {
    const answer = await api.call('GET', '/usage', { key, headers: { 'X-Workspace-ID': workspaceId } });
    expect(answer.status).toBe(200);
    return answer.body.data.api_calls.total as number;
  };

  it("is metered and limited: a member's token homed elsewhere spends the acting workspace's quota, not its home's", async () => {
    const team = await freeTenant('acting-team');
    const member = await joinAsMember(api, team.session, { name: 'Visitor', email: 'acting-visitor@example.com', password });
    const minted = await api.call('POST', '/user/tokens', as(member.session, { body: { name: 'cli', abilities: ['*'] } }));
    expect(minted.status).toBe(201);
    const token: string = minted.body.data.token;
    const home = (await api.call('GET', '/user', { key: token })).body.data;
    const homeId: string = (await api.call('GET', `/workspaces?per_page=100`, { key: token })).body.data.find(
      (w: { id: string }) => w.id !== team.workspaceId,
    ).id;
    expect(home.id).toBe(member.userId);

    const teamBefore = await usedIn(team.liveKey, team.workspaceId);
    const homeBefore = await usedIn(token, homeId);
    for (let i = 0; i < 3; i++) {
      expect(
        (await api.call('GET', `/workspaces/${team.workspaceId}`, { key: token, headers: { 'X-Workspace-ID': team.workspaceId } })).status,
      ).toBe(200);
    }
    expect((await api.call('GET', `/workspaces/${team.workspaceId}?workspace_id=${team.workspaceId}`, { key: token })).status).toBe(200);
    // Each /usage read counts itself: the team's count grew by the four calls and the read; the home's by its read alone.
    expect(await usedIn(team.liveKey, team.workspaceId)).toBe(teamBefore + 4 + 1);
    expect(await usedIn(token, homeId)).toBe(homeBefore + 1);

    // The team's month is spent: acting there is 429 QUOTA_EXCEEDED; at home the same token still works.
    await spendCalls(team.workspaceId, 'SET calls = :spent', free.api_calls);
    const refused = await api.call('GET', `/workspaces/${team.workspaceId}`, {
      key: token,
      headers: { 'X-Workspace-ID': team.workspaceId },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error_code: 'QUOTA_EXCEEDED', quota_type: 'api_calls' });
    expect((await api.call('GET', `/workspaces/${homeId}`, { key: token })).status).toBe(200);
    // Naming a workspace the user is no member of meters nothing there: the request is refused, and the home counts it.
    const stranger = await freeTenant('acting-stranger');
    const strangerBefore = await usedIn(stranger.liveKey, stranger.workspaceId);
    expect((await api.call('GET', '/user', { key: token, headers: { 'X-Workspace-ID': stranger.workspaceId } })).status).toBe(403);
    expect(await usedIn(stranger.liveKey, stranger.workspaceId)).toBe(strangerBefore + 1);
  });
});

describe('GET /usage', () => {
  it("shows the month's requests by day and by key, and every feature", async () => {
    const tenant = await freeTenant('usage');
    for (let i = 0; i < 3; i++) expect((await api.call('GET', '/entitlements/summary', { key: tenant.liveKey })).status).toBe(200);
    const answer = await api.call('GET', '/usage', { key: tenant.liveKey });
    expect(answer.status).toBe(200);
    const { data } = answer.body;
    const month = monthOf(new Date());
    expect(data.period).toEqual({ start: month.start.toISOString(), end: month.end.toISOString() });
    expect(data.api_calls.total).toBe(data.features.api_calls.used);
    const today = new Date().toISOString().slice(0, 10);
    expect(data.api_calls.by_day.find((d: { date: string }) => d.date === today).count).toBe(data.api_calls.total);
    const keyId = (await api.call('GET', '/api-keys?per_page=100', { key: tenant.liveKey })).body.data.find(
      (k: { environment: string }) => k.environment === 'live',
    ).id;
    const byKey = data.api_calls.by_key;
    expect(byKey.find((k: { key_id: string | null }) => k.key_id === keyId).count).toBe(4); // 3 summaries and this call
    expect(byKey.find((k: { user_id: number | null }) => k.user_id !== null).count).toBeGreaterThanOrEqual(2); // the session's key creates
    expect(data.api_calls.total).toBe(byKey.reduce((sum: number, k: { count: number }) => sum + k.count, 0));
    // Its own scope, usage:read (which *:read covers).
    const narrow = await api.call('POST', '/api-keys', as(tenant.session, { body: { name: 'usage only', scopes: ['usage:read'] } }));
    expect((await api.call('GET', '/usage', { key: narrow.body.data.key })).status).toBe(200);
    expect((await api.call('GET', '/entitlements/summary', { key: narrow.body.data.key })).status).toBe(403);
  });
});
