import { handlersFor } from '#core/http/handlers';
import { type OperationCaller, refusalOf } from '#core/http/operation-invocation';
import type { ApiRequest } from '#core/http/types';
import { readResource } from '#core/mcp/resources';
import { callTool, toolFor } from '#core/mcp/tool-calls';
import type { McpServer, McpTool, ToolCatalogue } from '#core/mcp/tool-catalogue';
import { NotFound } from '#core/platform/errors';
import type { mcpRoutes } from './routes.ts';

type McpRoute = (typeof mcpRoutes)[number];

const callerOf = (request: ApiRequest<McpRoute>): OperationCaller => ({
  principal: request.principal,
  workspaceId: request.workspaceId,
  requestId: request.requestId,
  sourceIp: request.sourceIp,
  url: request.url,
});

function serverFor(catalogue: ToolCatalogue, request: ApiRequest<McpRoute>, id: string): McpServer {
  const server = catalogue.visibleServers(request).find((candidate) => candidate.id === id);
  // A server with no tool for this credential is as absent as one that does not exist.
  if (!server) throw new NotFound('mcp server', id);
  return server;
}

const summaryOf = (server: McpServer) => ({
  id: server.id,
  name: server.name,
  description: server.description,
  tools: server.tools.map((t) => t.name),
});
const toolView = ({ name, description, parameters, annotations }: McpTool) => ({ name, description, parameters, annotations });

/** A URI as the path carried it: URL-decoded, once (`tenant%3A%2F%2F...` and `tenant://...` alike). */
function decodedUri(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/** The mcp function's handlers, over the catalogue its definition makes. */
export const mcpHandlers = (catalogue: ToolCatalogue) =>
  handlersFor<McpRoute>()({
    listMcpServers: async (request) => ({ status: 200, body: { data: catalogue.visibleServers(request).map(summaryOf) } }),
    getMcpServer: async (request) => ({ status: 200, body: { data: summaryOf(serverFor(catalogue, request, request.params.id)) } }),
    listMcpServerTools: async (request) => ({
      status: 200,
      body: { data: serverFor(catalogue, request, request.params.id).tools.map(toolView) },
    }),
    callMcpTool: async (request, deps) => {
      const { server, tool, arguments: args } = request.body;
      const result = await callTool(deps, callerOf(request), toolFor(catalogue, server, tool), args);
      if (result.answer.status >= 400) throw refusalOf(result.answer);
      return {
        status: 200,
        body: { result: { content: [{ type: 'text', text: result.text }], size: Buffer.byteLength(result.text), truncated: result.cut } },
      };
    },
    readMcpResource: async (request, deps) => {
      const { uri, mimeType, text } = await readResource(deps, catalogue, callerOf(request), decodedUri(request.params.uri));
      return { status: 200, body: { data: { uri, mime_type: mimeType, text } } };
    },
  });
