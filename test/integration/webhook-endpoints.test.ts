import type { Tier } from '#core/platform/tiers';
import { createUser } from '#core/users/users';
import type { EndpointManager } from '#core/webhooks/endpoint-access';
import { isRetired, loadWebhookEndpoint } from '#core/webhooks/endpoint-view';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  webhookEndpointsOf,
} from '#core/webhooks/endpoints';
import { rotateWebhookSecret } from '#core/webhooks/secret-rotation';
import { createWorkspace, deleteWorkspace } from '#core/workspaces/workspaces';
import { manualClock, type TestDeps, testDeps } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';
import { listVia } from '../support/lists.ts';
import { openedSecretsOf } from '../support/webhooks.ts';

const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let deps: TestDeps;
beforeAll(async () => {
  deps = await testDeps({ clock });
});
afterAll(() => deps.close());

const publicUrl = 'https://93.184.216.34/hooks';
let serial = 0;

/** A workspace of a new user's, on `tier`, and its live and test owners. */
async function workspaceOn(tier: Tier = 'enterprise') {
  const user = await createUser(deps, { name: `owner ${++serial}`, email: `owner-${serial}@example.com`, tier });
  const workspace = await createWorkspace(deps, user.id, { name: `hooks ${serial}`, tier });
  const actor = { userId: user.id, scopes: ['*'] };
  const live: EndpointManager = { workspaceId: workspace.id, environment: 'live', actor };
  const test: EndpointManager = { workspaceId: workspace.id, environment: 'test', actor };
  return { user, workspace, live, test };
}

/** Creates an endpoint a millisecond after the last, so that creation order is id order. */
function create(owner: EndpointManager, input: Partial<Parameters<typeof createWebhookEndpoint>[2]> = {}) {
  clock.advance(1);
  return createWebhookEndpoint(deps, owner, { url: publicUrl, events: ['workspace.deleted'], ...input });
}

/** An endpoint as GET shows it: the create answer without its secret. */
const webhookViewOf = ({ secret: _secret, ...view }: Awaited<ReturnType<typeof createWebhookEndpoint>>) => view;

/** The events the outbox wrote for `workspaceId`, oldest first, with their envelopes parsed. */
async function eventsOf(workspaceId: string) {
  const { data } = await deps.db.entities.webhookEvent.scan.go({ pages: 'all' });
  return data
    .filter((event) => event.workspaceId === workspaceId && event.type.startsWith('webhook.'))
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((event) => ({ ...event, envelope: JSON.parse(event.body) }));
}

describe('creating a webhook endpoint', () => {
  it('answers the endpoint with a generated secret, once, and stores it in the credential environment', async () => {
    const { live, workspace } = await workspaceOn();
    const created = await create(live, { events: ['api_key.*', 'workspace.updated', 'api_key.*'] });
    expect(created).toEqual({
      id: expect.stringMatching(/^wh_[0-9A-Z]{26}$/),
      url: publicUrl,
      events: ['api_key.*', 'workspace.updated'],
      is_active: true,
      success_count: 0,
      failure_count: 0,
      consecutive_failures: 0,
      last_delivery_at: null,
      disabled_at: null,
      environment: 'live',
      workspace_id: workspace.id,
      created_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const shown = await getWebhookEndpoint(deps, live, created.id);
    expect(shown).not.toHaveProperty('secret');
    expect(JSON.stringify(shown)).not.toContain(created.secret);
    expect((await openedSecretsOf(deps, live, created.id)).secret).toBe(created.secret);
  });

  it('keeps a secret of the client', async () => {
    const { live } = await workspaceOn();
    const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const created = await create(live, { secret });
    expect(created.secret).toBe(secret);
    expect((await openedSecretsOf(deps, live, created.id)).secret).toBe(secret);
  });

  it('stores the URL as the URL parser reads it', async () => {
    const { live } = await workspaceOn();
    expect((await create(live, { url: 'HTTPS://0x5db8d822:443/In?x=1' })).url).toBe('https://93.184.216.34/In?x=1');
  });

  it.each([
    ['a loopback address', 'https://127.0.0.1/hook'],
    ['localhost', 'https://localhost/hook'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['a decimal loopback', 'https://2130706433/hook'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['http://', 'http://93.184.216.34/hook'],
    ['a name that does not resolve', 'https://nowhere.invalid/hook'],
  ])('refuses %s with 422, creating and counting nothing', async (_what, url) => {
    const { live } = await workspaceOn('free');
    const refused = await errorOf(create(live, { url }));
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.extras.errors as object)).toEqual(['url']);
    expect((await listVia('listWebhooks', webhookEndpointsOf(deps, live))).meta.total).toBe(0);
    expect(await eventsOf(live.workspaceId)).toEqual([]);
    // The limit's count did not move either: both free endpoints can still be made.
    await create(live);
    await create(live);
  });

  it('writes webhook.created in the same transaction, with the endpoint as data and no secret', async () => {
    const { live, workspace } = await workspaceOn();
    const created = await create(live);
    const [event, ...others] = await eventsOf(workspace.id);
    expect(others).toEqual([]);
    const { secret, ...view } = created;
    expect(event).toMatchObject({ type: 'webhook.created', workspaceId: workspace.id, environment: 'live', dueAt: event!.createdAt });
    expect(event!.envelope).toEqual({
      id: event!.id,
      type: 'webhook.created',
      created_at: clock.now().toISOString(),
      workspace_id: workspace.id,
      data: view,
    });
    expect(event!.body).not.toContain(secret);
  });
});

describe('the webhooks limit', () => {
  it('allows the free tier two endpoints per environment, then answers 403 feature_limit_reached', async () => {
    const { live, test } = await workspaceOn('free');
    await create(live);
    const second = await create(live);
    const refused = await errorOf(create(live));
    expect(refused.status).toBe(403);
    expect(refused.code).toBe('feature_limit_reached');
    expect(refused.extras).toMatchObject({ feature: 'webhooks', limit: 2, current_usage: 2 });
    // Test endpoints are counted apart.
    await create(test);
    await create(test);
    expect((await errorOf(create(test))).status).toBe(403);
    // Deleting one frees its place.
    await deleteWebhookEndpoint(deps, live, second.id);
    await create(live);
    expect((await listVia('listWebhooks', webhookEndpointsOf(deps, live))).meta.total).toBe(2);
  });

  it('holds when creates race: never more than the limit', async () => {
    const { live } = await workspaceOn('free');
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => create(live)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason.status).toBe(403);
    }
    const listed = await listVia('listWebhooks', webhookEndpointsOf(deps, live));
    expect([listed.meta.total, listed.data.length]).toEqual([2, 2]);
  });
});

describe('listing webhook endpoints', () => {
  it("pages through the environment's endpoints in creation order, counted at constant cost", async () => {
    const { live, test } = await workspaceOn();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await create(live, { url: `${publicUrl}/${i}` }));
    const testOnly = await create(test);
    const first = await listVia('listWebhooks', webhookEndpointsOf(deps, live), 'per_page=2');
    expect(first.data.map((w) => w.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect(first.meta).toMatchObject({ total: 5, last_page: 3, per_page: 2 });
    expect(first.links.next).not.toBeNull();
    const cursor = new URL(first.links.next!).searchParams.get('cursor')!;
    const second = await listVia('listWebhooks', webhookEndpointsOf(deps, live), `per_page=2&cursor=${encodeURIComponent(cursor)}`);
    expect(second.data.map((w) => w.id)).toEqual([made[2]!.id, made[3]!.id]);
    const last = await listVia('listWebhooks', webhookEndpointsOf(deps, live), 'per_page=2&page=3');
    expect(last.data.map((w) => w.id)).toEqual([made[4]!.id]);
    expect(last.links.next).toBeNull();
    expect(JSON.stringify([first, second, last])).not.toContain('whsec_');
    expect(JSON.stringify([first, second, last])).not.toContain(testOnly.id);
    const tests = await listVia('listWebhooks', webhookEndpointsOf(deps, test));
    expect(tests.data.map((w) => w.id)).toEqual([testOnly.id]);
    expect(tests.meta.total).toBe(1);
  });

  it('filters on is_active, searches the URL and sorts by it', async () => {
    const { live } = await workspaceOn();
    const paused = await create(live, { url: 'https://93.184.216.34/b-paused' });
    await create(live, { url: 'https://93.184.216.34/a-running' });
    await updateWebhookEndpoint(deps, live, paused.id, { isActive: false });
    const inactive = await listVia('listWebhooks', webhookEndpointsOf(deps, live), 'is_active=false');
    expect(inactive.data.map((w) => w.id)).toEqual([paused.id]);
    const found = await listVia('listWebhooks', webhookEndpointsOf(deps, live), 'search=RUNNING');
    expect(found.data.map((w) => w.url)).toEqual(['https://93.184.216.34/a-running']);
    const sorted = await listVia('listWebhooks', webhookEndpointsOf(deps, live), 'sort=-url');
    expect(sorted.data.map((w) => w.url)).toEqual(['https://93.184.216.34/b-paused', 'https://93.184.216.34/a-running']);
  });
});

describe('one tenant and environment never reach another', () => {
  it("answers 404 for another workspace's endpoint and for the other environment's, as for one that does not exist", async () => {
    const mine = await workspaceOn();
    const theirs = await workspaceOn();
    const live = await create(mine.live);
    for (const stranger of [mine.test, theirs.live, theirs.test]) {
      const attempts = [
        getWebhookEndpoint(deps, stranger, live.id),
        updateWebhookEndpoint(deps, stranger, live.id, { isActive: false }),
        rotateWebhookSecret(deps, stranger, live.id, 24),
        deleteWebhookEndpoint(deps, stranger, live.id),
      ];
      for (const attempt of attempts) {
        const refused = await errorOf(attempt);
        expect({ status: refused.status, extras: refused.extras }).toEqual({
          status: 404,
          extras: { resource_type: 'webhook', resource_id: live.id },
        });
      }
    }
    expect(await getWebhookEndpoint(deps, mine.live, live.id)).toMatchObject({ is_active: true, updated_at: live.updated_at });
    expect((await openedSecretsOf(deps, mine.live, live.id)).secret).toBe(live.secret);
  });
});

describe('changing a webhook endpoint', () => {
  it('changes URL, events and is_active, emitting webhook.updated with the endpoint as changed', async () => {
    const { live } = await workspaceOn();
    const created = await create(live);
    clock.advance(1000);
    const updated = await updateWebhookEndpoint(deps, live, created.id, {
      url: 'https://[2606:4700:4700::1111]/new',
      events: ['*'],
      isActive: false,
    });
    expect(updated).toMatchObject({
      url: 'https://[2606:4700:4700::1111]/new',
      events: ['*'],
      is_active: false,
      updated_at: clock.now().toISOString(),
    });
    expect(await getWebhookEndpoint(deps, live, created.id)).toEqual(updated);
    const events = await eventsOf(live.workspaceId);
    expect(events.map((e) => e.type)).toEqual(['webhook.created', 'webhook.updated']);
    expect(events[1]!.envelope.data).toEqual(updated);
  });

  it('refuses a URL the policy forbids, changing nothing', async () => {
    const { live } = await workspaceOn();
    const created = await create(live);
    for (const url of [
      'https://10.0.0.1/',
      'https://0177.0.0.1/',
      'https://[fd00:ec2::254]/',
      'https://localhost/',
      'http://93.184.216.34/',
    ]) {
      const refused = await errorOf(updateWebhookEndpoint(deps, live, created.id, { url, isActive: false }));
      expect([url, refused.status]).toEqual([url, 422]);
    }
    expect(await getWebhookEndpoint(deps, live, created.id)).toMatchObject({ url: publicUrl, is_active: true });
    expect((await eventsOf(live.workspaceId)).map((e) => e.type)).toEqual(['webhook.created']);
  });

  it('starts the count of failures in a row afresh when an endpoint disabled by failures is activated again', async () => {
    const { live } = await workspaceOn();
    const created = await create(live);
    // As the delivery worker leaves an endpoint it disabled.
    await deps.db.entities.webhookEndpoint
      .patch({ ...live, id: created.id })
      .set({ isActive: false, disabledAt: clock.now().toISOString(), consecutiveFailures: 15, failureCount: 20, successCount: 3 })
      .go();
    expect(await getWebhookEndpoint(deps, live, created.id)).toMatchObject({ is_active: false, disabled_at: clock.now().toISOString() });
    const resumed = await updateWebhookEndpoint(deps, live, created.id, { isActive: true });
    expect(resumed).toMatchObject({ is_active: true, consecutive_failures: 0, disabled_at: null, failure_count: 20, success_count: 3 });
    expect(await getWebhookEndpoint(deps, live, created.id)).toEqual(resumed);
    expect((await loadWebhookEndpoint(deps, live, created.id)).disabledAt).toBeUndefined();
  });

  it('leaves the failures in a row of an active endpoint alone when is_active true is sent again', async () => {
    const { live } = await workspaceOn();
    const created = await create(live);
    await deps.db.entities.webhookEndpoint
      .patch({ ...live, id: created.id })
      .set({ consecutiveFailures: 4 })
      .go();
    expect((await updateWebhookEndpoint(deps, live, created.id, { isActive: true })).consecutive_failures).toBe(4);
  });
});

describe('deleting a webhook endpoint', () => {
  it('removes it with its count and emits webhook.deleted with the endpoint as it was', async () => {
    const { live } = await workspaceOn();
    const created = await create(live);
    clock.advance(1);
    await deleteWebhookEndpoint(deps, live, created.id);
    expect((await errorOf(getWebhookEndpoint(deps, live, created.id))).status).toBe(404);
    expect((await errorOf(deleteWebhookEndpoint(deps, live, created.id))).status).toBe(404);
    expect((await listVia('listWebhooks', webhookEndpointsOf(deps, live))).meta.total).toBe(0);
    const events = await eventsOf(live.workspaceId);
    expect(events.map((e) => e.type)).toEqual(['webhook.created', 'webhook.deleted']);
    const { secret: _secret, ...view } = created;
    expect(events[1]!.envelope.data).toEqual(view);
  });

  it('goes with its workspace, once the ladder of the workspace.deleted event has had its time', async () => {
    const { user, workspace, live, test } = await workspaceOn();
    const home = await createWorkspace(deps, user.id, { name: 'home' });
    await create(live);
    await create(test);
    await deleteWorkspace(deps, { userId: user.id }, workspace.id, { home: home.id });
    const { data } = await deps.db.entities.webhookEndpoint.query.byWorkspace({ workspaceId: workspace.id }).go();
    expect(data).toHaveLength(2);
    const lastDay = clock.now().getTime() + 26.6 * 3_600_000;
    for (const endpoint of data) {
      expect(isRetired(endpoint, new Date(lastDay))).toBe(false);
      expect(isRetired(endpoint, new Date(lastDay + 2 * 86_400_000))).toBe(true);
    }
  });
});

describe('rotating a webhook secret', () => {
  it('answers a new secret once and keeps the old one signing until the grace period ends', async () => {
    const { live } = await workspaceOn();
    const created = await create(live);
    clock.advance(60_000);
    const rotated = await rotateWebhookSecret(deps, live, created.id, 24);
    const graceEnds = new Date(clock.now().getTime() + 24 * 3_600_000).toISOString();
    expect(rotated).toMatchObject({
      id: created.id,
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: graceEnds,
      updated_at: clock.now().toISOString(),
    });
    expect(rotated.secret).not.toBe(created.secret);
    expect(await openedSecretsOf(deps, live, created.id)).toMatchObject({
      secret: rotated.secret,
      previousSecret: created.secret,
      previousSecretExpiresAt: graceEnds,
    });
    const events = await eventsOf(live.workspaceId);
    expect(events.map((e) => e.type)).toEqual(['webhook.created', 'webhook.secret_rotated']);
    const { secret: _secret, previous_secret_expires_at: _ends, ...view } = rotated;
    expect(events[1]!.envelope.data).toEqual(view);
    expect(events[1]!.body).not.toContain(rotated.secret);
    expect(events[1]!.body).not.toContain(created.secret);
  });

  it('ends the old secret at once with a grace period of 0, and keeps only the secret replaced last', async () => {
    const { live } = await workspaceOn();
    const created = await create(live);
    const first = await rotateWebhookSecret(deps, live, created.id, 2);
    const second = await rotateWebhookSecret(deps, live, created.id, 2);
    expect(await openedSecretsOf(deps, live, created.id)).toMatchObject({ secret: second.secret, previousSecret: first.secret });
    const third = await rotateWebhookSecret(deps, live, created.id, 0);
    expect(third.previous_secret_expires_at).toBeNull();
    const stored = await openedSecretsOf(deps, live, created.id);
    expect(stored.secret).toBe(third.secret);
    expect(stored.previousSecret).toBeUndefined();
    expect(stored.previousSecretExpiresAt).toBeUndefined();
  });

  it('lets one of two racing rotations win, and shows no secret that does not sign', async () => {
    const { live } = await workspaceOn();
    const created = await create(live);
    const outcomes = await Promise.allSettled([
      rotateWebhookSecret(deps, live, created.id, 1),
      rotateWebhookSecret(deps, live, created.id, 1),
    ]);
    const won = outcomes.filter(
      (o): o is PromiseFulfilledResult<Awaited<ReturnType<typeof rotateWebhookSecret>>> => o.status === 'fulfilled',
    );
    const stored = await openedSecretsOf(deps, live, created.id);
    for (const winner of won) expect([stored.secret, stored.previousSecret]).toContain(winner.value.secret);
    for (const lost of outcomes.filter((o) => o.status === 'rejected')) expect((lost as PromiseRejectedResult).reason.status).toBe(409);
  });
});

describe('what a credential may do to an endpoint beyond webhooks:write', () => {
  it('refuses rotating the secret of an endpoint whose events the credential cannot read, naming each missing scope, and rotates nothing', async () => {
    const { live } = await workspaceOn();
    const everything = await create(live, { events: ['*'] });
    const keys = await create(live, { events: ['api_key.*', 'webhook.*'] });
    const webhooksOnly: EndpointManager = { ...live, actor: { ...live.actor, scopes: ['webhooks:*'] } };
    const refused = await errorOf(rotateWebhookSecret(deps, webhooksOnly, everything.id, 0));
    expect({ status: refused.status, code: refused.errorCode, extras: refused.extras }).toEqual({
      status: 403,
      code: 'INSUFFICIENT_PERMISSIONS',
      extras: {
        required_scope: 'workspaces:read api-keys:read users:read namespaces:read posts:read categories:read seo:read',
        provided_scopes: ['webhooks:*'],
      },
    });
    const refusedKeys = await errorOf(rotateWebhookSecret(deps, webhooksOnly, keys.id, 0));
    expect(refusedKeys.extras).toMatchObject({ required_scope: 'api-keys:read' });
    const keyReader: EndpointManager = { ...live, actor: { ...live.actor, scopes: ['webhooks:*', 'api-keys:read'] } };
    expect((await rotateWebhookSecret(deps, keyReader, keys.id, 0)).secret).toMatch(/^whsec_/);
    expect(await getWebhookEndpoint(deps, live, everything.id)).toEqual(webhookViewOf(everything));
    expect((await eventsOf(live.workspaceId)).filter((e) => e.type === 'webhook.secret_rotated').map((e) => e.envelope.data.id)).toEqual([
      keys.id,
    ]);
  });

  it('refuses an OAuth token creating an endpoint, changing its url or events, or rotating its secret, saying why; it may pause and delete one', async () => {
    const { live } = await workspaceOn();
    const endpoint = await create(live, { events: ['*'] });
    const oauth: EndpointManager = { ...live, actor: { ...live.actor, limits: { workspaceId: live.workspaceId } } };
    for (const [what, attempt] of [
      ['create', create(oauth)],
      ['url', updateWebhookEndpoint(deps, oauth, endpoint.id, { url: `${publicUrl}/elsewhere` })],
      ['events', updateWebhookEndpoint(deps, oauth, endpoint.id, { events: ['webhook.*'] })],
      ['rotate', rotateWebhookSecret(deps, oauth, endpoint.id, 0)],
    ] as const) {
      const refused = await errorOf(attempt);
      expect({ what, status: refused.status, code: refused.code, errorCode: refused.errorCode }).toEqual({
        what,
        status: 403,
        code: 'access_denied',
        errorCode: 'ACCESS_DENIED',
      });
      expect(refused.message).toMatch(
        /^An OAuth access token cannot .+ \(an endpoint and its secret outlive the token\): that is for the user's own credentials\.$/,
      );
    }
    expect(await getWebhookEndpoint(deps, live, endpoint.id)).toEqual(webhookViewOf(endpoint));
    expect((await updateWebhookEndpoint(deps, oauth, endpoint.id, { isActive: false })).is_active).toBe(false);
    clock.advance(1);
    await deleteWebhookEndpoint(deps, oauth, endpoint.id);
    expect((await eventsOf(live.workspaceId)).map((e) => e.type)).toEqual(['webhook.created', 'webhook.updated', 'webhook.deleted']);
  });
});
