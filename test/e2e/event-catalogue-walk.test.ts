import { eventTypeNames } from '#core/events/event-types';
import { registerVerified } from '../support/accounts.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential } from '../support/sessions.ts';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * The catalogue walked through the local runner as tenants would: for every type, the
 * change that emits it, with an endpoint subscribed where that event goes, until the
 * receiver holds a verified delivery of each. A type that no endpoint could ever receive
 * (as workspace.created was, sent only to a workspace with no endpoints yet) fails here.
 */

// Receivers on 127.0.0.1 over http; an endpoint is disabled after one failed delivery, so webhook.disabled comes at once.
process.env.WEBHOOK_ALLOW_INSECURE = '1';
process.env.WEBHOOK_RETRY_SCALE = '0.0001';
process.env.WEBHOOK_DISABLE_AFTER = '1';

let api: TestApi;
let receiver: WebhookReceiver;
beforeAll(async () => {
  [api, receiver] = await Promise.all([startTestApi(), startWebhookReceiver()]);
});
afterAll(() => Promise.all([api.stop(), receiver.close()]));

const secrets = new Map<string, string>();

async function subscribe(path: string, events: string[], options: { credential?: Credential; workspaceId?: string } = {}) {
  const headers = options.workspaceId ? { 'X-Workspace-ID': options.workspaceId } : undefined;
  const body = { url: receiver.origin + path, events };
  const created = await api.call('POST', '/webhooks', options.credential ? as(options.credential, { body, headers }) : { body, headers });
  expect(created.status).toBe(201);
  secrets.set(path, created.body.data.secret);
  return created.body.data.id as string;
}

/** The types delivered so far, each delivery verified with its endpoint's secret. */
const typesReceived = () =>
  new Set(
    receiver.received
      .filter((hook) => hook.answered === 200 && secrets.has(hook.path))
      .map((hook) => verifyWebhook(hook, secrets.get(hook.path)!).type),
  );

const ok = (status: number, expected = 200) => expect(status).toBe(expected);

describe('the event catalogue, walked', () => {
  it('delivers every type to an endpoint subscribed to it', async () => {
    const home = api.runner.bootstrap!.workspaceId;
    const password = 'walking the catalogue';
    await subscribe('/home', ['*']);

    // Workspaces: one made from home (home hears of it), with an endpoint of its own for its suspension.
    const made = await api.call('POST', '/workspaces', { body: { name: 'Walked' } });
    ok(made.status, 201);
    const other: string = made.body.data.id;
    await subscribe('/other', ['workspace.*'], { workspaceId: other });
    ok((await api.call('PATCH', `/workspaces/${home}`, { body: { settings: { locale: 'en-GB' } } })).status);
    ok((await api.call('POST', `/admin/workspaces/${other}/suspend`, { body: { reason: 'walk' } })).status);
    ok((await api.call('POST', `/admin/workspaces/${other}/resume`)).status);

    // API keys.
    const key = await api.call('POST', '/api-keys', { body: { name: 'walked', scopes: ['workspaces:read'] } });
    const rotated = await api.call('POST', `/api-keys/${key.body.data.id}/rotate`, { body: { grace_period_hours: 1 } });
    ok(rotated.status);
    ok((await api.call('DELETE', `/api-keys/${rotated.body.data.id}`)).status, 204);

    // People: Ada joins home, Bob declines; Ada's own changes go to her personal workspace.
    const ada = await registerVerified(api, { name: 'Ada', email: 'walk-ada@example.com', password });
    const bob = await registerVerified(api, { name: 'Bob', email: 'walk-bob@example.com', password });
    await subscribe('/ada', ['user.*'], { credential: ada.session });
    ok((await api.call('POST', '/users', { body: { email: 'walk-ada@example.com', role: 'member' } })).status, 202);
    ok((await api.call('POST', `/user/invitations/${home}/accept`, as(ada.session))).status);
    ok((await api.call('POST', '/users', { body: { email: 'walk-bob@example.com', role: 'member' } })).status, 202);
    ok((await api.call('DELETE', `/user/invitations/${home}`, as(bob.session))).status, 204);
    ok((await api.call('PATCH', `/users/${ada.userId}`, as(ada.session, { body: { name: 'Ada L.' } }))).status);

    // Packages of home's namespace.
    const granted = await api.call('POST', `/admin/namespaces/ns_${home.slice('wks_'.length)}/packages`, {
      body: { name: 'Walk', entitlements: { api_keys: 1 } },
    });
    ok(granted.status, 201);

    // Webhook endpoints: one made, changed, re-keyed, failing until disabled, deleted; a test send.
    receiver.answer('/failing', Array(10).fill(410));
    const failing = await subscribe('/failing', ['api_key.*']);
    ok((await api.call('PATCH', `/webhooks/${failing}`, { body: { events: ['api_key.created'] } })).status);
    ok((await api.call('POST', `/webhooks/${failing}/rotate-secret`, { body: {} })).status);
    ok((await api.call('POST', '/api-keys', { body: { name: 'to the failing endpoint', scopes: ['workspaces:read'] } })).status, 201);
    await receiver.waitFor(1, (hook) => hook.path === '/home' && hook.headers['x-webhook-event'] === 'webhook.disabled');
    ok((await api.call('DELETE', `/webhooks/${failing}`)).status, 204);
    const homeEndpoint = (await api.call('GET', '/webhooks')).body.data.find((e: { url: string }) => e.url.endsWith('/home')).id;
    ok((await api.call('POST', `/webhooks/${homeEndpoint}/test`)).status);

    // Content: a category and a post in it, through their lives.
    const category = await api.call('POST', '/categories', { body: { name: 'Walks' } });
    ok(category.status, 201);
    ok((await api.call('PATCH', `/categories/${category.body.data.id}`, { body: { description: 'Long ones' } })).status);
    const post = await api.call('POST', '/posts', { body: { title: 'A walk', category_ids: [category.body.data.id] } });
    ok(post.status, 201);
    ok((await api.call('PATCH', `/posts/${post.body.data.id}`, { body: { excerpt: 'Through the catalogue' } })).status);
    ok((await api.call('POST', `/posts/${post.body.data.id}/publish`)).status);
    ok((await api.call('POST', `/posts/${post.body.data.id}/archive`)).status);
    ok((await api.call('DELETE', `/posts/${post.body.data.id}`)).status, 204);
    ok((await api.call('DELETE', `/categories/${category.body.data.id}`)).status, 204);
    // An SEO report.
    const report = { url: 'https://example.com/walked', scores: { performance: 90, accessibility: 80, best_practices: 70, seo: 60 } };
    ok((await api.call('POST', '/seo/report', { body: report })).status, 201);

    // Last, the workspace made at the start goes, and home hears of it.
    ok((await api.call('DELETE', `/workspaces/${other}`)).status, 204);

    const deadline = Date.now() + 20_000;
    while (eventTypeNames.some((type) => !typesReceived().has(type)) && Date.now() < deadline) {
      await new Promise((wait) => setTimeout(wait, 100));
    }
    expect(eventTypeNames.filter((type) => !typesReceived().has(type))).toEqual([]);
  });
});
