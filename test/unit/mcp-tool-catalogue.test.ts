import { toolCatalogue, toolNameOf } from '#core/mcp/tool-catalogue';
import { routes } from '#routes';
import { operationRoutes } from '../../functions/operation-routes.ts';

/** The catalogue as the MCP definitions make it: from every function's routes but their own. */
const catalogue = toolCatalogue(operationRoutes);
const mcpServers = catalogue.servers;

describe('the MCP tool catalogue, made from the route registry', () => {
  const servers = mcpServers();
  const tool = (server: string, name: string) => servers.find((s) => s.id === server)?.tools.find((t) => t.name === name);

  it('names tools in snake_case under 64 characters, each once', () => {
    expect(toolNameOf('listPosts')).toBe('list_posts');
    const names = servers.flatMap((server) => server.tools.map((t) => t.name));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });

  it("is the catalogue the whole registry makes: the MCP functions' own routes are no tools", () => {
    const outline = (servers: ReturnType<typeof mcpServers>) =>
      servers.map((server) => [server.id, server.tools.map((t) => `${t.route.function}:${t.name}`)]);
    expect(outline(toolCatalogue(routes).servers())).toEqual(outline(servers));
    expect(catalogue.functions()).not.toContain('mcp');
  });

  it('groups tools by resource, and leaves out public, admin and session-only routes', () => {
    const ids = servers.map((server) => server.id);
    expect(ids).toEqual(expect.arrayContaining(['workspaces', 'api-keys', 'webhooks', 'posts', 'categories', 'seo', 'entitlements']));
    expect(ids).not.toContain('admin');
    expect(ids).not.toContain('sessions');
    expect(ids).not.toContain('oauth');
  });

  it("takes a tool's parameters from its route's schemas: path, query and body", () => {
    const create = tool('posts', 'create_post')!;
    expect(create.parameters.title).toEqual({ type: 'string', description: expect.stringContaining('255'), required: true });
    expect(create.parameters.category_ids).toMatchObject({ type: 'array', required: false });
    expect(create.parameters).not.toHaveProperty('workspace_id');
    const update = tool('posts', 'update_post')!;
    expect(update.parameters.id).toMatchObject({ type: 'string', required: true });
    expect(update.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    const list = tool('posts', 'list_posts')!;
    // A number, as openapi.yaml declares it: the call writes it back into the query as text.
    expect(list.parameters.per_page).toMatchObject({ type: 'integer', required: false });
    expect(list.inputSchema.properties?.per_page).toMatchObject({ type: 'integer', minimum: 1 });
    expect(list.inputSchema.properties?.per_page).not.toHaveProperty('pattern');
    expect(list.annotations.readOnlyHint).toBe(true);
    expect(tool('posts', 'delete_post')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
  });
});

describe("a tool's schemas, as MCP clients read them", () => {
  const create = mcpServers()
    .find((s) => s.id === 'posts')!
    .tools.find((t) => t.name === 'create_post')!;

  it('gives an inputSchema of draft 7 with the required parameters, and where each argument goes', () => {
    expect(create.inputSchema).toMatchObject({ type: 'object', required: ['title'] });
    expect(create.inputSchema).not.toHaveProperty('$schema');
    expect(create.places).toMatchObject({ title: 'body', category_ids: 'body' });
    const get = mcpServers()
      .find((s) => s.id === 'posts')!
      .tools.find((t) => t.name === 'get_post')!;
    expect(get.places).toMatchObject({ id: 'path', include: 'query' });
  });

  it('gives an outputSchema loosened for fields= and cut lists: no required, no additionalProperties', () => {
    const text = JSON.stringify(create.outputSchema);
    expect(create.outputSchema?.type).toBe('object');
    expect(text).not.toMatch(/"required"|"additionalProperties"/);
    expect(text).toContain('"title"');
  });

  it('leaves out the query workspace_id (a tool acts in its request’s workspace), and keeps a path namespace_id', () => {
    for (const tool of mcpServers().flatMap((s) => s.tools))
      expect([tool.name, tool.places.workspace_id]).not.toEqual([tool.name, 'query']);
    const namespace = mcpServers()
      .flatMap((s) => s.tools)
      .find((t) => t.name === 'get_namespace')!;
    expect(namespace.places.namespace_id).toBe('path');
  });
});
