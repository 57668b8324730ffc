import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/mini';
import { errorAnswer } from '#core/http/error-answer';
import { type InvokedRoute, invokeOperation, type OperationCaller } from '#core/http/operation-invocation';
import type { toolCallResult } from '#core/mcp/mcp-schemas';
import { openapiUri, resourceTemplates } from '#core/mcp/resource-templates';
import type { ToolCatalogue } from '#core/mcp/tool-catalogue';
import { NotFound } from '#core/platform/errors';
import type { RouteInvoker } from '#core/ports/route-invoker';

/** How many tools one tools/list page holds: a client with a wide credential pages, a narrow one reads one page. */
const toolsPerPage = 25;

const pageStart = (cursor: string | undefined): number => {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isSafeInteger(start) || start < 0) throw new McpError(ErrorCode.InvalidParams, 'The cursor is not one tools/list gave.');
  return start;
};

/**
 * The mcp function's routes this one calls for what needs the table, as any client of them
 * would name them (functions/mcp/routes.ts serves them): a tool call (counted there) and a
 * resource read.
 */
const callRoute: InvokedRoute = { function: 'mcp', method: 'POST', path: '/mcp/tools/call' };
const readRoute: InvokedRoute = { function: 'mcp', method: 'GET', path: '/mcp/resources/{uri+}' };

/** A tool's answer as JSON, for `structuredContent`, unless it was cut as text. */
function structuredOf(text: string): Record<string, unknown> | undefined {
  try {
    const json = JSON.parse(text) as unknown;
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One MCP server for one request (stateless), answering as the caller's credential may.
 * It lists from the catalogue it is given, and calls and reads through the mcp function's
 * REST routes (POST /mcp/tools/call, GET /mcp/resources/{uri}), so that a call over the
 * protocol is scoped, counted and run exactly as one over REST.
 */
function serverFor(catalogue: ToolCatalogue, invoker: RouteInvoker, caller: OperationCaller): Server {
  const server = new Server(
    { name: 'tenant-api', version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        "This service's REST API as tools, run as your credential: you see and may call only what its scopes allow. List tools take page and per_page (10 unless you ask).",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async ({ params }) => {
    const tools = catalogue.visibleServers(caller).flatMap((s) => s.tools);
    const start = pageStart(params?.cursor);
    const end = start + toolsPerPage;
    return {
      tools: tools.slice(start, end).map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema && { outputSchema: tool.outputSchema }),
        annotations: tool.annotations,
      })),
      ...(end < tools.length && { nextCursor: String(end) }),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
    // Any tool of the catalogue, not only those listed: the mcp function's answer names what is missing (403 naming the scope, 404).
    const found = catalogue.findTool(params.name);
    if (!found) {
      const unknown = errorAnswer(new NotFound('mcp tool', params.name), caller.requestId).body;
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(unknown) }] };
    }
    const answer = await invokeOperation(invoker, caller, callRoute, {
      params: {},
      query: {},
      body: { server: found.server.id, tool: found.tool.name, arguments: params.arguments ?? {} },
    });
    // A refusal (the operation's, or the call's own: the mcp_calls limit, a bad argument) is a result the model reads.
    if (answer.status >= 400) return { isError: true, content: [{ type: 'text', text: answer.text }] };
    const { text } = (answer.body as z.output<typeof toolCallResult>).result.content[0]!;
    const structured = found.tool.outputSchema && structuredOf(text);
    return { content: [{ type: 'text', text }], ...(structured && { structuredContent: structured }) };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      { uri: openapiUri, name: 'openapi.yaml', description: 'The OpenAPI 3.1 description of this API.', mimeType: 'application/yaml' },
      {
        uri: `tenant://workspaces/${caller.workspaceId}`,
        name: 'workspace',
        description: 'The workspace this connection acts in.',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: resourceTemplates(catalogue, caller).map(({ uriTemplate, name, description }) => ({
      uriTemplate,
      name,
      description,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => {
    const answer = await invokeOperation(invoker, caller, readRoute, { params: { uri: params.uri }, query: {} });
    const body = answer.body as { data: { uri: string; mime_type: string; text: string }; message?: string };
    // MCP's code for a resource it does not have (-32002), with the envelope as its data.
    if (answer.status >= 400) throw new McpError(-32002, body.message ?? 'The resource cannot be read.', body);
    return { contents: [{ uri: body.data.uri, mimeType: body.data.mime_type, text: body.data.text }] };
  });
  return server;
}

/** What the MCP route answers: the transport's status and JSON-RPC body (none for a notification). */
export interface ProtocolAnswer {
  status: number;
  body: unknown;
}

/**
 * Serves one MCP request statelessly, as the SDK does on any web-standard runtime: a
 * server and transport made for it, JSON answers (no event stream: a Lambda answers once).
 */
export async function serveMcp(
  catalogue: ToolCatalogue,
  invoker: RouteInvoker,
  caller: OperationCaller,
  headers: Record<string, string>,
  body: unknown,
): Promise<ProtocolAnswer> {
  const server = serverFor(catalogue, invoker, caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const { 'content-length': _length, ...sent } = headers;
    const request = new Request(caller.url, { method: 'POST', headers: sent, body: JSON.stringify(body) });
    const response = await transport.handleRequest(request, { parsedBody: body });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  } finally {
    await server.close();
  }
}
