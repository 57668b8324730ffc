import { startTestApi, type TestApi } from '../support/local-api.ts';

/** The MCP servers and tools through the local runner, as a credential sees them. */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const keyWith = async (scopes: string[]) =>
  (await api.call('POST', '/api-keys', { body: { name: `mcp ${scopes.join(' ')}`, scopes } })).body.data.key as string;

describe('MCP servers and tools', () => {
  it('lists the servers with every tool for a full credential', async () => {
    const listed = await api.call('GET', '/mcp/servers');
    expect(listed.status).toBe(200);
    const posts = listed.body.data.find((server: { id: string }) => server.id === 'posts');
    expect(posts).toMatchObject({ name: 'Posts', tools: expect.arrayContaining(['list_posts', 'create_post', 'delete_post']) });
    const tools = await api.call('GET', '/mcp/servers/posts/tools');
    const create = tools.body.data.find((tool: { name: string }) => tool.name === 'create_post');
    expect(create.parameters.title).toEqual({ type: 'string', description: expect.any(String), required: true });
    expect(create.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });

  it('shows a narrow credential only the tools it may call, and no server it has none of', async () => {
    const key = await keyWith(['mcp:read', 'mcp:write', 'posts:read']);
    const listed = await api.call('GET', '/mcp/servers', { key });
    expect(listed.body.data.map((server: { id: string }) => server.id)).toEqual(['posts']);
    expect(listed.body.data[0].tools).toEqual(['list_posts', 'get_post']);
    expect((await api.call('GET', '/mcp/servers/webhooks', { key })).status).toBe(404);
    expect((await api.call('GET', '/mcp/servers/webhooks/tools', { key })).status).toBe(404);
  });

  it('shows a credential that may not call (no mcp:write) no tools at all', async () => {
    const listed = await api.call('GET', '/mcp/servers', { key: await keyWith(['mcp:read', 'posts:read']) });
    expect([listed.status, listed.body.data]).toEqual([200, []]);
  });

  it('answers an unknown server 404 and a malformed id 422, and needs mcp:read', async () => {
    expect((await api.call('GET', '/mcp/servers/nothing-here')).status).toBe(404);
    expect((await api.call('GET', '/mcp/servers/NOT%20AN%20ID')).status).toBe(422);
    const refused = await api.call('GET', '/mcp/servers', { key: await keyWith(['posts:read']) });
    expect([refused.status, refused.body.required_scope]).toEqual([403, 'mcp:read']);
  });
});
