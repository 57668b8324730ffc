import { counterKey } from '#core/entitlements/usage';
import { workspaceScopeById } from '#core/namespaces/workspace-scope';
import { tiers } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { registerVerified } from '../support/accounts.ts';
import { startTestApiWithDeps, type TestApi } from '../support/local-api.ts';
import { as } from '../support/sessions.ts';

/**
 * POST /mcp/tools/call and GET /mcp/resources/{uri} through the local runner: a tool runs
 * its operation as the caller (scopes, workspace, environment, validation), counts one
 * mcp_calls, and answers MCP content; a cut list says how to ask for the rest.
 */

let api: TestApi & { deps: Deps };
let workspaceId: string;
beforeAll(async () => {
  api = await startTestApiWithDeps();
  const made = await api.call('POST', '/workspaces', { body: { name: 'Tooled', tier: 'pro' } });
  workspaceId = made.body.data.id;
});
afterAll(() => api.stop());

const inWorkspace = (options: { key?: string; body?: unknown } = {}, id = workspaceId) => ({
  ...options,
  headers: { 'X-Workspace-ID': id },
});

const call = (server: string, tool: string, args: Record<string, unknown>, key?: string, id = workspaceId) =>
  api.call('POST', '/mcp/tools/call', inWorkspace({ key, body: { server, tool, arguments: args } }, id));

const resultOf = (answer: { status: number; body: any }) => {
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body.result.content[0].text);
};

async function keyWith(scopes: string[], environment: 'live' | 'test' = 'live', id = workspaceId) {
  const made = await api.call('POST', '/api-keys', { body: { name: `mcp ${scopes.join(' ')}`, scopes, environment, workspace_id: id } });
  expect(made.status).toBe(201);
  return made.body.data.key as string;
}

/** Another tenant: another user, with a full key of their own workspace, which is none of ours. */
let otherTenant: Promise<{ key: string; workspaceId: string }> | undefined;
const anotherTenant = () =>
  (otherTenant ??= (async () => {
    const other = await registerVerified(api, { name: 'Other', email: 'mcp-other@example.com', password: 'another tenant here' });
    const theirs = (await api.call('GET', '/workspaces', as(other.session))).body.data[0].id as string;
    const made = await api.call('POST', '/api-keys', { ...as(other.session), body: { name: 'theirs', scopes: ['*'] } });
    return { key: made.body.data.key as string, workspaceId: theirs };
  })());

const mcpCallsUsed = async (key?: string) => {
  const summary = await api.call('GET', '/entitlements/summary', inWorkspace({ key }));
  return summary.body.data.entitlements.mcp_calls.used as number;
};

describe('POST /mcp/tools/call', () => {
  it('runs the operation as the caller and answers its JSON as MCP content, with its size in bytes', async () => {
    const before = await mcpCallsUsed();
    const created = await call('posts', 'create_post', { title: 'Über tools', content: 'From an MCP client' });
    expect(created.body.result).toMatchObject({ content: [{ type: 'text' }], truncated: false });
    expect(created.body.result.size).toBe(Buffer.byteLength(created.body.result.content[0].text));
    const post = resultOf(created).data;
    expect(post).toMatchObject({ title: 'Über tools', status: 'draft' });
    // The post is the workspace's, as a direct create's would be.
    const direct = await api.call('GET', `/posts/${post.id}`, inWorkspace());
    expect(direct.body.data.title).toBe('Über tools');
    expect(resultOf(await call('posts', 'get_post', { id: post.id })).data.id).toBe(post.id);
    expect(await mcpCallsUsed()).toBe(before + 2);
  });

  it("refuses what the caller's scopes do not allow, naming the scope, and counts nothing", async () => {
    const before = await mcpCallsUsed();
    const readOnly = await keyWith(['mcp:write', 'posts:read']);
    const refused = await call('posts', 'create_post', { title: 'Not mine to write' }, readOnly);
    expect([refused.status, refused.body.required_scope]).toEqual([403, 'posts:write']);
    const noMcpWrite = await call('posts', 'list_posts', {}, await keyWith(['mcp:read', 'posts:read']));
    expect([noMcpWrite.status, noMcpWrite.body.required_scope]).toEqual([403, 'mcp:write']);
    expect(await mcpCallsUsed()).toBe(before);
  });

  it('answers bad arguments 422 naming the field, and an unknown server or tool 404', async () => {
    const missing = await call('posts', 'create_post', {});
    expect([missing.status, Object.keys(missing.body.errors)]).toEqual([422, ['arguments.title']]);
    const wrongType = await call('posts', 'list_posts', { per_page: 'many' });
    expect([wrongType.status, Object.keys(wrongType.body.errors)]).toEqual([422, ['arguments.per_page']]);
    const unknownArgument = await call('posts', 'get_post', { id: 'post_x', colour: 'red' });
    expect([unknownArgument.status, Object.keys(unknownArgument.body.errors)]).toEqual([422, ['arguments.colour']]);
    for (const builtIn of ['constructor', 'toString']) {
      const named = await api.call('POST', '/mcp/tools/call', {
        ...inWorkspace(),
        rawBody: `{"server":"posts","tool":"list_posts","arguments":{"${builtIn}":{"a":1}}}`,
        headers: { 'X-Workspace-ID': workspaceId, 'Content-Type': 'application/json' },
      });
      expect([builtIn, named.status, Object.keys(named.body.errors ?? {})]).toEqual([builtIn, 422, [`arguments.${builtIn}`]]);
    }
    const noId = await call('posts', 'get_post', {});
    expect([noId.status, Object.keys(noId.body.errors)]).toEqual([422, ['arguments.id']]);
    expect((await call('posts', 'no_such_tool', {})).status).toBe(404);
    expect((await call('nothing-here', 'list_posts', {})).status).toBe(404);
    // A tool of another server is not this one's.
    expect((await call('webhooks', 'list_posts', {})).status).toBe(404);
    const badBody = await api.call('POST', '/mcp/tools/call', inWorkspace({ body: { server: 'posts' } }));
    expect([badBody.status, Object.keys(badBody.body.errors)]).toEqual([422, ['tool']]);
  });

  it("never reaches another tenant's records", async () => {
    const other = await anotherTenant();
    const mine = resultOf(await call('posts', 'create_post', { title: 'Private' })).data;
    const foreign = await call('posts', 'get_post', { id: mine.id }, other.key, other.workspaceId);
    expect(foreign.status).toBe(404);
    // Naming this workspace with the other tenant's key is refused as a direct call would be.
    const named = await call('posts', 'list_posts', {}, other.key);
    const direct = await api.call('GET', '/posts', { key: other.key, headers: { 'X-Workspace-ID': workspaceId } });
    expect([named.status, named.body.error_code]).toEqual([direct.status, direct.body.error_code]);
    expect(named.status).toBeGreaterThanOrEqual(403);
  });

  it('holds a test key to test mode: its posts are test posts, counted in test usage', async () => {
    const testKey = await keyWith(['*'], 'test');
    const before = await mcpCallsUsed(testKey);
    const made = resultOf(await call('posts', 'create_post', { title: 'A test post' }, testKey)).data;
    const live = await call('posts', 'get_post', { id: made.id });
    expect(live.status).toBe(404);
    expect(await mcpCallsUsed(testKey)).toBe(before + 1);
    // A test key cannot change live-only data through a tool either (refused before a call is counted), and is not shown such tools.
    const counted = await mcpCallsUsed(testKey);
    const refused = await call('workspaces', 'update_workspace', { id: workspaceId, name: 'Renamed' }, testKey);
    expect([refused.status, refused.body.error_code]).toEqual([403, 'ACCESS_DENIED']);
    expect(await mcpCallsUsed(testKey)).toBe(counted);
    const servers = (await api.call('GET', '/mcp/servers', inWorkspace({ key: testKey }))).body.data;
    const toolsOf = (id: string) => servers.find((server: { id: string }) => server.id === id).tools;
    expect(toolsOf('workspaces')).toEqual(['list_workspaces', 'get_workspace']);
    expect(toolsOf('posts')).toContain('create_post');
  });

  it('pages list tools by 10 unless asked, and cuts a result past about 25,000 tokens with a hint', async () => {
    const big = 'x'.repeat(60_000);
    for (let i = 0; i < 3; i++) expect((await call('posts', 'create_post', { title: `Big ${i}`, content: big })).status).toBe(200);
    const listed = await call('posts', 'list_posts', { search: 'big' });
    const body = resultOf(listed);
    expect(listed.body.result.truncated).toBe(true);
    expect(listed.body.result.size).toBeLessThanOrEqual(100_000);
    expect(body.data.length).toBeGreaterThanOrEqual(1);
    expect(body.meta.cut).toMatchObject({ shown: body.data.length, of: 3, hint: expect.stringContaining('per_page=') });
    const small = resultOf(await call('posts', 'list_posts', {}));
    expect(small.meta.per_page).toBe(10);
    expect(resultOf(await call('posts', 'list_posts', { per_page: 2 })).data).toHaveLength(2);
  });

  it('counts one mcp_calls per call, and refuses past the monthly limit with 403 feature_limit_reached', async () => {
    const limited = await api.call('POST', '/workspaces', { body: { name: 'Limited' } });
    const id = limited.body.data.id;
    const limit = tiers.free.entitlements.mcp_calls!;
    const scope = await workspaceScopeById(api.deps, id, 'live');
    await api.deps.db.entities.usageCounter.upsert({ ...counterKey(scope, 'mcp_calls', new Date()), used: limit - 1 }).go();
    expect((await call('posts', 'list_posts', {}, undefined, id)).status).toBe(200);
    const refused = await call('posts', 'list_posts', {}, undefined, id);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'feature_limit_reached', feature: 'mcp_calls', limit, current_usage: limit });
  });

  it('replays a call sent again with its Idempotency-Key, counting it once', async () => {
    const before = await mcpCallsUsed();
    const once = { server: 'posts', tool: 'create_post', arguments: { title: 'Only once' } };
    const headers = { 'X-Workspace-ID': workspaceId, 'Idempotency-Key': `mcp-${Date.now()}` };
    const first = await api.call('POST', '/mcp/tools/call', { body: once, headers });
    const again = await api.call('POST', '/mcp/tools/call', { body: once, headers });
    expect(resultOf(again).data.id).toBe(resultOf(first).data.id);
    expect(await mcpCallsUsed()).toBe(before + 1);
  });
});

describe('GET /mcp/resources/{uri}', () => {
  let postUri: string;
  beforeAll(async () => {
    const post = resultOf(await call('posts', 'create_post', { title: 'A resource' })).data;
    postUri = `tenant://workspaces/${workspaceId}/posts/${post.id}`;
  });

  it('reads a record by its URI, URL-encoded or with its slashes as they are', async () => {
    for (const path of [`/mcp/resources/${encodeURIComponent(postUri)}`, `/mcp/resources/${postUri}`]) {
      const read = await api.call('GET', path);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ uri: postUri, mime_type: 'application/json' });
      expect(JSON.parse(read.body.data.text).title).toBe('A resource');
    }
    const workspace = await api.call('GET', `/mcp/resources/${encodeURIComponent(`tenant://workspaces/${workspaceId}`)}`);
    expect(JSON.parse(workspace.body.data.text).id).toBe(workspaceId);
  });

  it('reads docs://openapi.yaml', async () => {
    const read = await api.call('GET', `/mcp/resources/${encodeURIComponent('docs://openapi.yaml')}`);
    expect([read.status, read.body.data.mime_type]).toEqual([200, 'application/yaml']);
    expect(read.body.data.text).toMatch(/^openapi: 3\.1/m);
  });

  it("answers 404 for an unknown URI and for another tenant's record", async () => {
    for (const uri of [
      'tenant://workspaces/wks_nothing/posts/post_nothing',
      `tenant://workspaces/${workspaceId}/nothing/x`,
      'docs://other.yaml',
      'https://example.com',
    ]) {
      const read = await api.call('GET', `/mcp/resources/${encodeURIComponent(uri)}`);
      expect([uri, read.status]).toEqual([uri, 404]);
    }
    const { key } = await anotherTenant();
    const foreign = await api.call('GET', `/mcp/resources/${encodeURIComponent(postUri)}`, { key });
    expect(foreign.status).toBe(404);
  });
});
