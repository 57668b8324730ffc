import type { Route } from '#core/http/route-types';
import { idPrefixes } from '#core/platform/ids';
import { routes } from '#routes';
import { joinAsMember, linkIn, mailTo, registerVerified } from '../support/accounts.ts';
import { type ApiAnswer, startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential, login, mintUserToken, register } from '../support/sessions.ts';

/**
 * Tenant A is the bootstrap admin; tenant B registers on its own. Every route with a path
 * parameter is walked automatically: a new id-bearing route fails here until `creators`
 * (and, if it takes a body, `validBodies`) know how to make a real resource of A for it.
 */

let api: TestApi;
const A = {} as { key: Credential; token: Credential; session: Credential; workspaceId: string; userId: number };
const B = {} as { key: Credential; token: Credential; session: Credential; workspaceId: string; userId: number };
const password = 'tenant b password';

beforeAll(async () => {
  api = await startTestApi({ over: 'http' });
  const boot = api.runner.bootstrap!;
  A.key = { type: 'api_key', bearer: api.adminKey };
  A.session = (await login(api, boot.email, boot.password)).session;
  A.token = { type: 'user_token', bearer: (await mintUserToken(api, A.session, { name: 'tenant A', abilities: ['*'] })).token };
  A.workspaceId = boot.workspaceId;
  A.userId = boot.userId;

  ({ userId: B.userId, session: B.session } = await registerVerified(api, { name: 'Tenant B', email: 'tenant-b@example.com', password }));
  B.token = { type: 'user_token', bearer: (await mintUserToken(api, B.session, { name: 'tenant B', abilities: ['*'] })).token };
  B.workspaceId = (await api.call('GET', '/workspaces', as(B.session))).body.data[0].id;
  expect(B.workspaceId).not.toBe(A.workspaceId);
  // B's session and token share one allowance (a user's own credentials are metered together), and its
  // key takes its workspace's tier when made: on pro, this test's pace of B's calls stays within a minute's.
  expect((await api.call('PATCH', `/admin/workspaces/${B.workspaceId}`, as(A.key, { body: { tier: 'pro' } }))).status).toBe(200);
  const bKey = await api.call('POST', '/api-keys', as(B.session, { body: { name: 'tenant B', scopes: ['*'] } }));
  expect([bKey.status, bKey.body.data.rate_limit_tier]).toEqual([201, 'pro']);
  B.key = { type: 'api_key', bearer: bKey.body.data.key };
});
afterAll(() => api.stop());

const allRoutes: readonly Route[] = routes;
const credentialsOf = (tenant: typeof A) => [tenant.key, tenant.token, tenant.session];
const accepts = (route: Route, credential: Credential) => !route.credentials || route.credentials.includes(credential.type);
const isAdminRoute = (route: Route) => route.platformAdmin === true || route.path.startsWith('/admin/');
const urlOf = (route: Route, path: string) => (route.mount === 'root' ? api.runner.origin : api.runner.baseUrl) + path;
const paramsOf = (path: string) => [...path.matchAll(/([^/]+)\/\{([^}]+)\}/g)].map((m) => ({ key: `${m[1]}/{${m[2]}}`, name: m[2]! }));

/** `shared`: what every tenant sees alike (the built-in MCP servers); no id of A's may show among them either. */
type IdKind =
  | 'workspace'
  | 'apiKey'
  | 'user'
  | 'userToken'
  | 'namespace'
  | 'webhook'
  | 'delivery'
  | 'post'
  | 'category'
  | 'pixelDomain'
  | 'shared';

interface Created {
  id: string;
  /** A read with A's credential that shows the resource, if the API has one. */
  readPath?: string;
  /** Uses the resource as A would (its credential, its workspace): the status A gets. */
  probe?: () => Promise<number>;
  /** The resources it lives in, by path parameter (a delivery's endpoint): a route naming both gets A's real pair. */
  parents?: Record<string, string>;
}

interface Creator {
  kind: IdKind;
  /** A well-formed id that names nothing. */
  ghost: string;
  create(): Promise<Created>;
}

async function created(answer: Promise<ApiAnswer>, what: string) {
  const a = await answer;
  if (a.status !== 201) throw new Error(`creating ${what} for tenant A answered ${a.status} ${JSON.stringify(a.body)}`);
  return a.body.data;
}

let serial = 0;

/**
 * An account whose email is not verified yet, invited by A: what a mailed link of A's could
 * change. Its probe answers 200 while the account is as it was (same email, unverified).
 */
async function unverifiedAccountOfA(): Promise<Created> {
  const email = `a-newcomer-${++serial}@example.com`;
  await register(api, { name: `A newcomer ${serial}`, email, password });
  const { session } = await login(api, email, password);
  const me = async () => (await api.call('GET', '/user', as(session))).body.data;
  const { id } = await me();
  return { id: String(id), probe: async () => ((await me()).email === email && (await me()).email_verified_at === null ? 200 : 409) };
}

/**
 * The `{token}` of a mailed-link route that B holds: a verification link of a newcomer of
 * B's, or the link of an email change B asked for. Presented with A's user id, it must
 * change nothing of A's.
 */
async function linkTokenOfB(route: Route): Promise<string> {
  const email = `b-link-${++serial}@example.com`;
  if (route.path.startsWith('/email/verify/')) {
    await register(api, { name: `B newcomer ${serial}`, email, password });
    return linkIn(await mailTo(api, email), /\/email\/verify\//)
      .split('/')
      .at(-1)!;
  }
  const asked = await api.call('PATCH', `/users/${B.userId}`, as(B.session, { body: { email, current_password: password } }));
  if (asked.status !== 200) throw new Error(`B's email change answered ${asked.status}`);
  return linkIn(await mailTo(api, email), /\/email\/change\//)
    .split('/')
    .at(-1)!;
}
/** How to make a real resource of tenant A for a path parameter, by `<segment>/{<param>}`. */
const webhookOfA: Creator = {
  kind: 'webhook',
  ghost: 'wh_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  async create() {
    // A public target subscribed to an event nothing here emits: no delivery is attempted.
    const body = { url: 'https://93.184.216.34/tenant-a', events: ['workspace.deleted'] };
    const data = await created(api.call('POST', '/webhooks', as(A.key, { body })), 'a webhook endpoint');
    return { id: data.id, readPath: `/webhooks/${data.id}` };
  },
};

const creators: Record<string, Creator> = {
  'workspaces/{id}': {
    kind: 'workspace',
    ghost: 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      const data = await created(api.call('POST', '/workspaces', as(A.key, { body: { name: `A workspace ${++serial}` } })), 'a workspace');
      return {
        id: data.id,
        readPath: `/workspaces/${data.id}`,
        probe: async () => (await api.call('GET', '/api-keys', as(A.key, { headers: { 'X-Workspace-ID': data.id } }))).status,
      };
    },
  },
  'api-keys/{id}': {
    kind: 'apiKey',
    ghost: 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      const data = await created(api.call('POST', '/api-keys', as(A.key, { body: { name: `A key ${++serial}` } })), 'an API key');
      return {
        id: data.id,
        readPath: `/api-keys/${data.id}`,
        probe: async () => (await api.call('GET', '/workspaces', { key: data.key })).status,
      };
    },
  },
  'users/{user_id}': {
    kind: 'user',
    ghost: '987654321',
    async create() {
      const email = `a-member-${++serial}@example.com`;
      const { userId } = await joinAsMember(api, A.key, { email, name: `A member ${serial}`, password });
      return {
        id: String(userId),
        probe: async () => (await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email, password } })).status,
      };
    },
  },
  'verify/{id}': {
    kind: 'user',
    ghost: '987654321',
    create: () => unverifiedAccountOfA(),
  },
  'change/{id}': {
    kind: 'user',
    ghost: '987654321',
    create: () => unverifiedAccountOfA(),
  },
  'invitations/{workspace_id}': {
    kind: 'workspace',
    ghost: 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      // An invitation waiting for A, from a third tenant's workspace.
      const email = `inviter-${++serial}@example.com`;
      await register(api, { name: `Inviter ${serial}`, email, password });
      const inviter = (await login(api, email, password)).session;
      const invited = await api.call('POST', '/users', as(inviter, { body: { email: api.runner.bootstrap!.email } }));
      if (invited.status !== 202) throw new Error(`inviting A answered ${invited.status} ${JSON.stringify(invited.body)}`);
      const workspaceId = invited.body.data.workspace_id as string;
      const waiting = async () =>
        (await api.call('GET', '/user/invitations', as(A.key))).body.data.some(
          (i: { workspace_id: string }) => i.workspace_id === workspaceId,
        );
      return { id: workspaceId, probe: async () => ((await waiting()) ? 200 : 404) };
    },
  },
  'namespaces/{namespace_id}': {
    kind: 'namespace',
    ghost: 'ns_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      // A workspace's default namespace, made with it. No readPath: its entitlements move with every request A makes.
      const data = await created(api.call('POST', '/workspaces', as(A.key, { body: { name: `A namespaced ${++serial}` } })), 'a workspace');
      const id = `ns_${data.id.slice('wks_'.length)}`;
      return {
        id,
        probe: async () => {
          const shown = await api.call('GET', `/namespaces/${id}`, as(A.key));
          return shown.status === 200 && shown.body.data.packages.length === 0 ? 200 : shown.status === 200 ? 409 : shown.status;
        },
      };
    },
  },
  'webhooks/{id}': webhookOfA,
  'posts/{id}': {
    kind: 'post',
    ghost: 'post_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      const data = await created(api.call('POST', '/posts', as(A.key, { body: { title: `A post ${++serial}` } })), 'a post');
      const shown = async () => (await api.call('GET', `/posts/${data.id}`, as(A.key))).body.data;
      // 200 while the post is as A made it: a draft with its own title.
      return { id: data.id, probe: async () => ((await shown())?.status === 'draft' && (await shown()).title === data.title ? 200 : 409) };
    },
  },
  // An MCP resource: A's post, by its tenant:// URI.
  'resources/{uri+}': {
    kind: 'post',
    ghost: 'tenant://workspaces/wks_01ARZ3NDEKTSV4RRFFQ69G5FAV/posts/post_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      const post = await creators['posts/{id}']!.create();
      return { ...post, id: `tenant://workspaces/${A.workspaceId}/posts/${post.id}` };
    },
  },
  'categories/{id}': {
    kind: 'category',
    ghost: 'cat_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      const data = await created(api.call('POST', '/categories', as(A.key, { body: { name: `A category ${++serial}` } })), 'a category');
      return { id: data.id, readPath: `/categories/${data.id}` };
    },
  },
  'issues/{workspace_id}': {
    kind: 'workspace',
    ghost: 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      // A workspace of A's with an SEO issue in it.
      const data = await created(api.call('POST', '/workspaces', as(A.key, { body: { name: `A audited ${++serial}` } })), 'a workspace');
      const report = {
        url: `https://example.com/a-${serial}`,
        scores: { performance: 50, accessibility: 60, best_practices: 70, seo: 80 },
        issues: [{ type: 'image-alt', severity: 'high', element: 'img.hero' }],
      };
      await created(api.call('POST', '/seo/report', as(A.key, { body: report, headers: { 'X-Workspace-ID': data.id } })), 'an SEO report');
      return { id: data.id, readPath: `/seo/issues/${data.id}` };
    },
  },
  'deliveries/{delivery_id}': {
    kind: 'delivery',
    ghost: 'del_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    async create() {
      // A delivery of A's that failed its first attempt (the target does not answer here) and waits a minute for its second.
      const body = { url: 'https://93.184.216.34/tenant-a-deliveries', events: ['workspace.updated'] };
      const webhook = await created(api.call('POST', '/webhooks', as(A.key, { body })), 'a webhook endpoint');
      await api.call('PATCH', `/workspaces/${A.workspaceId}`, as(A.key, { body: { name: `A renamed ${++serial}` } }));
      const readPath = `/webhooks/${webhook.id}/deliveries`;
      for (let tries = 0; tries < 100; tries++) {
        const [delivery] = (await api.call('GET', readPath, as(A.key))).body.data;
        if (delivery?.status === 'retrying') return { id: delivery.id, readPath, parents: { 'webhooks/{id}': webhook.id } };
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("A's delivery never reached its first retry");
    },
  },
  'pixel-domains/{domain}': {
    kind: 'pixelDomain',
    ghost: 'nobody-claims-this.example.com',
    async create() {
      // A site of A's, tracked: its domain claimed in the settings of a workspace of A's.
      const data = await created(api.call('POST', '/workspaces', as(A.key, { body: { name: `A tracked ${++serial}` } })), 'a workspace');
      const host = `a-site-${serial}.example.com`;
      const claimed = await api.call(
        'PATCH',
        `/workspaces/${data.id}`,
        as(A.key, { body: { settings: { pixel: { enabled: true, domains: [host] } } } }),
      );
      if (claimed.status !== 200) throw new Error(`claiming a domain for A answered ${claimed.status}`);
      const tracked = async () =>
        (await api.call('GET', '/pixel/config', { key: '', headers: { Origin: `https://${host}` } })).body.data.enabled;
      return { id: host, readPath: `/workspaces/${data.id}`, probe: async () => ((await tracked()) ? 200 : 409) };
    },
  },
  'tokens/{id}': {
    kind: 'userToken',
    ghost: '987654321',
    async create() {
      const minted = await mintUserToken(api, A.session, { name: `A token ${++serial}` });
      return { id: String(minted.id), probe: async () => (await api.call('GET', '/user', { key: minted.token })).status };
    },
  },
};

/** A body each route would accept from its owner (checked against the route's own schema). */
const validBodies: Record<string, unknown> = {
  updateWorkspace: { name: 'Taken over', settings: { timezone: 'Europe/Berlin' } },
  rotateApiKey: { grace_period_hours: 0 },
  // B's own password: even that changes nothing of A's.
  updateUser: { name: 'Taken over', email: 'taken-over@example.com', current_password: password },
  suspendWorkspace: { reason: 'hostile takeover' },
  updateWorkspaceAsAdmin: { tier: 'enterprise' },
  checkNamespaceEntitlement: { feature: 'posts', quantity: 1 },
  grantNamespacePackage: { name: 'Takeover', entitlements: { api_calls: 1_000_000 } },
  updateWebhook: { url: 'https://93.184.216.34/taken-over', events: ['*'], is_active: false },
  rotateWebhookSecret: { grace_period_hours: 0 },
  updatePost: { title: 'Taken over', status: 'archived' },
  updateCategory: { name: 'Taken over' },
};

function bodyFor(route: Route): unknown {
  if (!route.body) return undefined;
  if (!(route.operationId in validBodies)) {
    throw new Error(`${route.method} ${route.path} takes a body: add a valid one for "${route.operationId}" to validBodies`);
  }
  const body = validBodies[route.operationId];
  const parsed = route.body.safeParse(body);
  if (!parsed.success) throw new Error(`validBodies.${route.operationId} is not valid for the route: ${parsed.error.message}`);
  return body;
}

function creatorFor(route: Route, key: string): Creator {
  const creator = creators[key];
  if (!creator) {
    throw new Error(
      `No creator for the path parameter "${key}" of ${route.method} ${route.path}: add one to \`creators\` in tenant-isolation.test.ts`,
    );
  }
  return creator;
}

/** Fields that change without anyone changing the resource (api_calls: A's own reads are metered). */
const volatileFields = new Set(['last_used_at', 'request_id', 'timestamp', 'api_calls']);
/** An id the route's own schema accepts for path parameter `name`, of any kind this service has. */
function wellFormedId(route: Route, name: string): string {
  const candidates = ['1', ...Object.values(idPrefixes).map((prefix) => `${prefix}_01ARZ3NDEKTSV4RRFFQ69G5FAV`)];
  const schema = route.params?.shape[name] as { safeParse(v: unknown): { success: boolean } } | undefined;
  const found = candidates.find((c) => !schema || schema.safeParse(c).success);
  if (!found) throw new Error(`No well-formed id for "${name}" of ${route.method} ${route.path}: add a creator for it`);
  return found;
}

const withoutVolatile = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !volatileFields.has(k))
        .map(([k, v]) => [k, withoutVolatile(v)]),
    );
  }
  return value;
};

/** GET routes without path or required query parameters that answer JSON: lists, "who am I", usage (not OAuth's consent page). */
const readRoutes = allRoutes.filter(
  (r) =>
    r.method === 'GET' &&
    r.auth === 'credential' &&
    !r.path.includes('{') &&
    (!r.query || r.query.safeParse({}).success) &&
    200 in r.responses &&
    !r.responses[200]!.html,
);

/** Everything tenant A can see of its own, plus the state of the resources under attack. */
async function worldOfA(resources: Created[]) {
  const reads: [string, Promise<unknown>][] = readRoutes.map((route) => {
    const credential = credentialsOf(A).find((c) => accepts(route, c))!;
    const url = urlOf(route, route.list ? `${route.path}?per_page=100` : route.path);
    return [`GET ${route.path}`, api.call('GET', url, as(credential)).then((a) => ({ status: a.status, body: withoutVolatile(a.body) }))];
  });
  for (const resource of resources) {
    if (resource.readPath) {
      const read = api.call('GET', resource.readPath, as(A.key)).then((a) => ({ status: a.status, body: withoutVolatile(a.body) }));
      reads.push([`GET ${resource.readPath}`, read]);
    }
    if (resource.probe) reads.push([`use ${resource.id}`, resource.probe()]);
  }
  return Object.fromEntries(await Promise.all(reads.map(async ([name, read]) => [name, await read] as const)));
}

/**
 * Routes whose path names something every tenant shares, no tenant's data: the built-in MCP
 * servers. They are walked apart: B is shown exactly what A is, as their credentials' scopes are alike.
 */
const isSharedCatalogue = (route: Route) => route.path.startsWith('/mcp/servers/');
const idRoutes = allRoutes.filter((r) => r.path.includes('{') && !isSharedCatalogue(r));

describe('the shared catalogue', () => {
  it.each(allRoutes.filter(isSharedCatalogue).map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s shows tenant B what it shows tenant A',
    async (_name, route) => {
      const path = route.path.replace('{id}', 'posts');
      const [a, b] = [await api.call('GET', path, as(A.key)), await api.call('GET', path, as(B.key))];
      expect([b.status, b.body]).toEqual([a.status, a.body]);
      expect(a.status).toBe(200);
    },
  );
});

describe('tenant isolation on every route with a path parameter', () => {
  it('finds the id-bearing routes in the route table', () => {
    expect(idRoutes.length).toBeGreaterThanOrEqual(10);
    for (const route of idRoutes) expect(paramsOf(route.path).length).toBeGreaterThan(0);
  });

  it.each(idRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s with tenant B's credentials never touches tenant A's resource",
    async (_name, route) => {
      const admin = isAdminRoute(route);
      const credentials = credentialsOf(B).filter((c) => accepts(route, c));
      if (!credentials.length) throw new Error(`${route.method} ${route.path} takes none of B's credential types: extend the test`);
      const body = bodyFor(route);

      // Each credential attacks resources of its own; A's world is read once before all of them and once after.
      const attacks: { credential: Credential; path: string; ghostPath: string; resources: Created[] }[] = [];
      for (const credential of credentials) {
        const resources: Created[] = [];
        let path = route.path;
        let ghostPath = route.path;
        const parentIds = new Map<string, string>();
        // Innermost first: the resource made for the last parameter names those it lives in.
        for (const { key, name } of paramsOf(route.path).reverse()) {
          if (admin && !creators[key]) {
            // Platform-admin routes need no resource of A: any well-formed id must meet 403.
            path = path.replace(`{${name}}`, encodeURIComponent(wellFormedId(route, name)));
            continue;
          }
          const creator = creatorFor(route, key);
          let id = parentIds.get(key);
          if (id === undefined) {
            const resource = await creator.create();
            resources.push(resource);
            for (const [parentKey, parentId] of Object.entries(resource.parents ?? {})) parentIds.set(parentKey, parentId);
            id = resource.id;
          }
          path = path.replace(`{${name}}`, encodeURIComponent(id));
          ghostPath = ghostPath.replace(`{${name}}`, encodeURIComponent(creator.ghost));
        }
        if (path.includes('{token}')) {
          const token = await linkTokenOfB(route);
          path = path.replace('{token}', token);
          ghostPath = ghostPath.replace('{token}', token);
        }
        attacks.push({ credential, path, ghostPath, resources });
      }
      const attacked = attacks.flatMap((attack) => attack.resources);
      const before = await worldOfA(attacked);

      for (const { credential, path, ghostPath } of attacks) {
        // As an API client: a mailed link's button answers a browser with a page, JSON to this.
        const asClient = as(credential, { body, headers: { Accept: 'application/json' } });
        const answer = await api.call(route.method, urlOf(route, path), asClient);
        const seen = { credential: credential.type, status: answer.status, error_code: answer.body?.error_code };
        if (admin) {
          expect(seen).toEqual({ credential: credential.type, status: 403, error_code: expect.any(String) });
          expect(answer.body.error).toBe('access_denied');
        } else if (route.method === 'GET' && route.auth === 'none') {
          // A mailed link's page: the same button whatever the link; only its press acts.
          expect(seen).toEqual({ credential: credential.type, status: 200, error_code: undefined });
        } else {
          // A mailed link names its user: one whose token is another's is an invalid link (403), as for an unknown user.
          const refusal =
            route.auth === 'none' ? { status: 403, error_code: 'ACCESS_DENIED' } : { status: 404, error_code: 'RESOURCE_NOT_FOUND' };
          expect(seen).toEqual({ credential: credential.type, ...refusal });
          // Indistinguishable from an id that never existed.
          const ghost = await api.call(route.method, urlOf(route, ghostPath), asClient);
          expect({ status: ghost.status, error_code: ghost.body?.error_code, resource_type: ghost.body?.resource_type }).toEqual({
            status: answer.status,
            error_code: answer.body.error_code,
            resource_type: answer.body.resource_type,
          });
        }
      }

      const after = await worldOfA(attacked);
      expect(after).toEqual(before);
    },
  );
});

describe("tenant B's view", () => {
  it("never lists tenant A's ids on any read endpoint", async () => {
    const made = await Promise.all(Object.values(creators).map(async (c) => ({ kind: c.kind, ...(await c.create()) })));
    const aIds: Record<IdKind, Set<string>> = {
      workspace: new Set([A.workspaceId]),
      apiKey: new Set(),
      user: new Set([String(A.userId)]),
      userToken: new Set(),
      namespace: new Set(),
      webhook: new Set(),
      delivery: new Set(),
      post: new Set(),
      category: new Set(),
      shared: new Set(),
      pixelDomain: new Set(),
    };
    for (const m of made) aIds[m.kind].add(m.id);
    for (const k of (await api.call('GET', '/api-keys?per_page=100', as(A.key))).body.data) aIds.apiKey.add(k.id);
    for (const w of (await api.call('GET', '/workspaces?per_page=100', as(A.key))).body.data) aIds.workspace.add(w.id);
    for (const t of (await api.call('GET', '/user/tokens?per_page=100', as(A.session))).body.data) aIds.userToken.add(String(t.id));
    for (const u of (await api.call('GET', '/users?per_page=100', as(A.key))).body.data) aIds.user.add(String(u.id));
    for (const n of (await api.call('GET', '/namespaces?per_page=100', as(A.key))).body.data) aIds.namespace.add(n.id);
    for (const w of (await api.call('GET', '/webhooks?per_page=100', as(A.key))).body.data) aIds.webhook.add(w.id);
    expect(aIds.apiKey.size).toBeGreaterThanOrEqual(2);
    expect(aIds.user.size).toBeGreaterThanOrEqual(2);
    expect(aIds.webhook.size).toBeGreaterThanOrEqual(1);
    for (const p of (await api.call('GET', '/posts?per_page=100', as(A.key))).body.data) aIds.post.add(p.id);
    for (const c of (await api.call('GET', '/categories?per_page=100', as(A.key))).body.data) aIds.category.add(c.id);
    expect(aIds.post.size).toBeGreaterThanOrEqual(1);
    expect(aIds.category.size).toBeGreaterThanOrEqual(1);
    const stringIds = [
      ...aIds.workspace,
      ...aIds.apiKey,
      ...aIds.namespace,
      ...aIds.webhook,
      ...aIds.delivery,
      ...aIds.post,
      ...aIds.category,
      ...aIds.pixelDomain,
    ];

    /** What the `id` of a read endpoint's items is. */
    const itemKinds: Record<string, IdKind> = {
      '/workspaces': 'workspace',
      '/api-keys': 'apiKey',
      '/users': 'user',
      '/user': 'user',
      '/user/tokens': 'userToken',
      '/user/invitations': 'workspace',
      '/namespaces': 'namespace',
      '/webhooks': 'webhook',
      '/posts': 'post',
      '/categories': 'category',
      '/mcp/servers': 'shared',
      '/entitlements/summary': 'workspace',
      '/usage': 'workspace',
      '/pixel/stats': 'workspace',
    };
    expect(readRoutes.length).toBeGreaterThanOrEqual(5);
    for (const route of readRoutes) {
      const kind = itemKinds[route.path];
      if (!kind) throw new Error(`GET ${route.path} is a read endpoint this test does not know: add its item kind to itemKinds`);
      for (const credential of credentialsOf(B).filter((c) => accepts(route, c))) {
        const answer = await api.call('GET', urlOf(route, route.list ? `${route.path}?per_page=100` : route.path), as(credential));
        expect({ route: route.path, credential: credential.type, status: answer.status }).toEqual({
          route: route.path,
          credential: credential.type,
          status: 200,
        });
        const text = JSON.stringify(answer.body);
        for (const id of stringIds) expect(text).not.toContain(id);
        const items: Record<string, unknown>[] = Array.isArray(answer.body.data) ? answer.body.data : [answer.body.data];
        for (const item of items) {
          expect(aIds[kind].has(String(item.id))).toBe(false);
          if ('workspace_id' in item) expect(aIds.workspace.has(String(item.workspace_id))).toBe(false);
        }
      }
    }
  });

  it("does not tell B whether an email is A's when B registers it or changes to it", async () => {
    const aEmail = 'a-colleague@example.com';
    const { userId } = await joinAsMember(api, A.key, { name: 'A colleague', email: aEmail, password });

    const registering = await register(api, { name: 'Copycat', email: aEmail, password });
    const fresh = await register(api, { name: 'Newcomer', email: 'nobody-of-a@example.com', password });
    expect([registering.status, registering.body]).toEqual([fresh.status, fresh.body]);
    const changing = await api.call('PATCH', `/users/${B.userId}`, as(B.key, { body: { email: aEmail, current_password: password } }));
    const changingFresh = await api.call(
      'PATCH',
      `/users/${B.userId}`,
      as(B.key, { body: { email: 'also-nobody@example.com', current_password: password } }),
    );
    expect([changing.status, changing.body.message]).toEqual([changingFresh.status, changingFresh.body.message]);
    // A's id as a value of any field (timestamps are free to hold its digits).
    expect(JSON.stringify([registering.body, changing.body])).not.toMatch(new RegExp(`:"?${userId}"?[,}\\]]`));
    expect((await login(api, aEmail, password)).answer.status).toBe(200);
  });

  it("answers 403 when B names A's workspace in X-Workspace-ID or workspace_id, exactly as for a workspace that does not exist", async () => {
    for (const credential of credentialsOf(B)) {
      for (const workspace of [A.workspaceId, 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
        const header = await api.call('GET', '/workspaces', as(credential, { headers: { 'X-Workspace-ID': workspace } }));
        expect({ credential: credential.type, status: header.status, error: header.body.error }).toEqual({
          credential: credential.type,
          status: 403,
          error: 'access_denied',
        });
        const query = await api.call('GET', `/api-keys?workspace_id=${workspace}`, as(credential));
        expect(query.status).toBe(403);
        const write = await api.call(
          'POST',
          '/workspaces',
          as(credential, { body: { name: 'Squatter' }, headers: { 'X-Workspace-ID': workspace } }),
        );
        expect(write.status).toBe(403);
      }
      const keyThere = await api.call('POST', '/api-keys', as(credential, { body: { name: 'planted', workspace_id: A.workspaceId } }));
      expect(keyThere.status).toBe(403);
    }
    const aKeys = (await api.call('GET', '/api-keys?per_page=100', as(A.key))).body.data.map((k: { name: string }) => k.name);
    expect(aKeys).not.toContain('planted');
    const bWorkspaces = (await api.call('GET', '/workspaces', as(B.key))).body.data.map((w: { name: string }) => w.name);
    expect(bWorkspaces).not.toContain('Squatter');
  });
});
