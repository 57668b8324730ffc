import type { Principal } from '#core/access/principal';
import { grants } from '#core/access/scopes';
import { handlersFor } from '#core/http/handlers';
import { NotFound } from '#core/platform/errors';
import type { mcpRoutes } from './routes.ts';
import { type McpServer, type McpTool, mcpServers } from './tool-catalogue.ts';

/** What of a server a credential sees: the tools it may call (a narrow key's client reads few), or none. */
const visibleTo = (principal: Principal, server: McpServer): McpServer => ({
  ...server,
  tools: server.tools.filter((tool) => grants(principal.scopes, tool.route.scope!)),
});

const servers = mcpServers();

function serverFor(principal: Principal, id: string): McpServer {
  const server = servers.find((candidate) => candidate.id === id);
  const visible = server && visibleTo(principal, server);
  // A server with no tool for this credential is as absent as one that does not exist.
  if (!visible?.tools.length) throw new NotFound('mcp server', id);
  return visible;
}

const summaryOf = (server: McpServer) => ({
  id: server.id,
  name: server.name,
  description: server.description,
  tools: server.tools.map((t) => t.name),
});
const toolView = ({ route: _route, ...tool }: McpTool) => tool;

export const mcpHandlers = handlersFor<(typeof mcpRoutes)[number]>()({
  listMcpServers: async ({ principal }) => ({
    status: 200,
    body: {
      data: servers
        .map((server) => visibleTo(principal, server))
        .filter((server) => server.tools.length)
        .map(summaryOf),
    },
  }),
  getMcpServer: async ({ principal, params }) => ({ status: 200, body: { data: summaryOf(serverFor(principal, params.id)) } }),
  listMcpServerTools: async ({ principal, params }) => ({
    status: 200,
    body: { data: serverFor(principal, params.id).tools.map(toolView) },
  }),
});
