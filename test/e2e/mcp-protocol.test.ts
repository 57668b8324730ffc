import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApi, type TestApi } from '../support/local-api.ts';

/**
 * The MCP protocol at {base_url}/api/v1/mcp, driven by the official SDK's own client over
 * Streamable HTTP, as a desktop MCP client connects: initialize, tools/list (only what the
 * key may call, paged), tools/call (structured on success, isError with the envelope on a
 * refusal), resources/list, resources/templates/list and resources/read.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const endpoint = () => new URL(`${api.runner.baseUrl}/mcp`);

async function connected(key: string | undefined, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const authorization: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  const transport = new StreamableHTTPClientTransport(endpoint(), { requestInit: { headers: { ...authorization, ...headers } } });
  await client.connect(transport);
  return client;
}

const keyWith = async (scopes: string[]) =>
  (await api.call('POST', '/api-keys', { body: { name: `mcp ${scopes.join(' ')}`, scopes } })).body.data.key as string;

async function allTools(client: Client) {
  const names: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    names.push(...page.tools.map((tool) => tool.name));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { names, pages };
}

describe('the MCP protocol over Streamable HTTP', () => {
  it('initializes, and lists every tool of a full key over several pages', async () => {
    const client = await connected(api.adminKey);
    expect(client.getServerVersion()?.name).toBe('tenant-api');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    const { names, pages } = await allTools(client);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['create_post', 'list_webhooks', 'get_workspace']));
    const first = await client.listTools();
    const create =
      first.tools.find((tool) => tool.name === 'create_workspace') ?? (await client.listTools({ cursor: first.nextCursor })).tools[0];
    expect(create?.inputSchema.type).toBe('object');
    await client.close();
  });

  it('lists a narrow key only the tools it may call, on one page', async () => {
    const client = await connected(await keyWith(['mcp:read', 'mcp:write', 'posts:read']));
    const { names, pages } = await allTools(client);
    expect([names.sort(), pages]).toEqual([['get_post', 'list_posts'], 1]);
    const list = (await client.listTools()).tools.find((tool) => tool.name === 'list_posts')!;
    expect(list.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(list.outputSchema?.type).toBe('object');
    await client.close();
  });

  it('calls a tool: structured content on success, an isError result with the envelope on a refusal', async () => {
    const client = await connected(api.adminKey);
    const made = await client.callTool({ name: 'create_post', arguments: { title: 'Said over MCP' } });
    expect(made.isError).toBeFalsy();
    const structured = made.structuredContent as { data: { id: string; title: string } };
    expect(structured.data.title).toBe('Said over MCP');
    expect(JSON.parse((made.content as { text: string }[])[0]!.text)).toEqual(structured);
    const read = await client.callTool({ name: 'get_post', arguments: { id: structured.data.id } });
    expect((read.structuredContent as { data: { id: string } }).data.id).toBe(structured.data.id);
    const invalid = await client.callTool({ name: 'create_post', arguments: { title: '' } });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toBeUndefined();
    expect(JSON.parse((invalid.content as { text: string }[])[0]!.text)).toMatchObject({ error_code: 'VALIDATION_FAILED' });
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(JSON.parse((unknown.content as { text: string }[])[0]!.text)).toMatchObject({ error_code: 'RESOURCE_NOT_FOUND' });
    await client.close();
  });

  it("refuses a call the key's scopes do not allow, naming the scope, though the tool is not listed", async () => {
    const readOnly = await connected(await keyWith(['mcp:read', 'posts:read']));
    expect((await readOnly.listTools()).tools).toEqual([]);
    const refused = await readOnly.callTool({ name: 'list_posts', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as { text: string }[])[0]!.text)).toMatchObject({ required_scope: 'mcp:write' });
    await readOnly.close();
    const reader = await connected(await keyWith(['mcp:read', 'mcp:write', 'posts:read']));
    const write = await reader.callTool({ name: 'create_post', arguments: { title: 'Not allowed' } });
    expect(JSON.parse((write.content as { text: string }[])[0]!.text)).toMatchObject({ required_scope: 'posts:write' });
    await reader.close();
  });

  it('lists and reads resources', async () => {
    const client = await connected(api.adminKey);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('docs://openapi.yaml');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('tenant://workspaces/{workspace_id}/posts/{id}');
    const doc = await client.readResource({ uri: 'docs://openapi.yaml' });
    expect((doc.contents[0] as { text: string }).text).toMatch(/^openapi: 3\.1/m);
    const workspace = resources.find((resource) => resource.uri.startsWith('tenant://workspaces/'))!;
    const read = await client.readResource({ uri: workspace.uri });
    expect(JSON.parse((read.contents[0] as { text: string }).text).id).toBe(workspace.uri.split('/').at(-1));
    await expect(client.readResource({ uri: 'tenant://workspaces/wks_nothing/posts/post_nothing' })).rejects.toThrow();
    await client.close();
  });

  it('is behind the same authorizer: 401 without a credential, 403 without mcp:read', async () => {
    await expect(connected(undefined)).rejects.toThrow(/UNAUTHENTICATED/);
    await expect(connected(await keyWith(['posts:read']))).rejects.toThrow(/INSUFFICIENT_PERMISSIONS.*mcp:read/);
  });

  it('answers a request without JSON-RPC or the event-stream Accept as a 4xx in the envelope', async () => {
    const notRpc = await api.call('POST', '/mcp', { body: { hello: 'world' } });
    expect([notRpc.status, notRpc.body.error_code]).toEqual([422, 'VALIDATION_FAILED']);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const jsonOnly = await api.call('POST', '/mcp', { body: initialize, headers: { Accept: 'application/json' } });
    expect([jsonOnly.status, jsonOnly.body.error_code]).toEqual([400, 'INVALID_FORMAT']);
    const both = await api.call('POST', '/mcp', { body: initialize, headers: { Accept: 'application/json, text/event-stream' } });
    expect([both.status, both.body.result.serverInfo.name]).toEqual([200, 'tenant-api']);
  });
});
