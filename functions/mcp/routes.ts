import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { contextQuery, dataOf } from '#core/platform/common-schemas';
import { mcpServer, mcpTool, serverId } from './mcp-schemas.ts';

/** The routes of the mcp function: the service's operations as MCP servers and tools, shown as the caller's credential may use them. */
export const mcpRoutes = routeTable({ tag: 'MCP', auth: 'credential', query: contextQuery, scope: 'mcp:read' }, [
  {
    operationId: 'listMcpServers',
    method: 'GET',
    path: '/mcp/servers',
    summary: 'List the built-in MCP servers, each with the tools your credential may call',
    responses: { 200: { description: 'The servers that have a tool for you.', schema: z.object({ data: z.array(mcpServer) }) } },
  },
  {
    operationId: 'getMcpServer',
    method: 'GET',
    path: '/mcp/servers/{id}',
    summary: 'Get a built-in MCP server',
    params: z.object({ id: serverId }),
    responses: { 200: { description: 'The server.', schema: dataOf(mcpServer) } },
  },
  {
    operationId: 'listMcpServerTools',
    method: 'GET',
    path: '/mcp/servers/{id}/tools',
    summary: "List a server's tools that your credential may call, with their parameters",
    params: z.object({ id: serverId }),
    responses: { 200: { description: 'The tools.', schema: z.object({ data: z.array(mcpTool) }) } },
  },
]);
