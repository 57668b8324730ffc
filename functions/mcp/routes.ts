import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { mcpResource, mcpServer, mcpTool, resourceUri, serverId, toolCall, toolCallResult } from '#core/mcp/mcp-schemas';
import { contextQuery, dataOf } from '#core/platform/common-schemas';

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
  {
    operationId: 'callMcpTool',
    limitsConcurrency: true,
    method: 'POST',
    path: '/mcp/tools/call',
    summary: "Call a tool: run its operation as your credential, and get its answer as MCP content; counts one of the month's mcp_calls",
    scope: 'mcp:write',
    // A test key's call is held to test mode by the operation it runs, and counted in test usage.
    keepsEnvironmentsApart: true,
    runsOperations: true,
    errors: ['ENTITLEMENT_DENIED'],
    body: toolCall,
    responses: { 200: { description: "The operation's answer.", schema: toolCallResult } },
  },
  {
    operationId: 'readMcpResource',
    method: 'GET',
    path: '/mcp/resources/{uri+}',
    summary: 'Read a resource: a record of your workspace by its tenant:// URI, or docs://openapi.yaml',
    params: z.object({ uri: resourceUri }),
    runsOperations: true,
    responses: { 200: { description: 'The resource.', schema: dataOf(mcpResource) } },
  },
]);
