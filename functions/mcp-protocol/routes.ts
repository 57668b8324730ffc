import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { jsonRpcMessage } from '#core/mcp/mcp-schemas';
import { contextQuery } from '#core/platform/common-schemas';

/** The route of the mcp-protocol function: the MCP protocol itself, for MCP clients. */
export const mcpProtocolRoutes = routeTable(
  { tag: 'MCP', auth: 'credential', query: contextQuery, scope: 'mcp:read', keepsEnvironmentsApart: true },
  [
    {
      operationId: 'serveMcpProtocol',
      description:
        'Point an MCP client (Streamable HTTP) here with an API key as Bearer: `initialize`, `tools/list`, `tools/call`, `resources/list` and `resources/read` are answered as JSON, statelessly.',
      method: 'POST',
      path: '/mcp',
      summary: 'The MCP protocol (Streamable HTTP, stateless, JSON answers): connect an MCP client here',
      // A JSON-RPC request has its own id; MCP clients send no Idempotency-Key.
      idempotencyKey: false,
      body: jsonRpcMessage,
      responses: {
        200: { description: 'The JSON-RPC answer.', schema: z.looseObject({ jsonrpc: z.literal('2.0') }) },
        202: { description: 'A notification, accepted; no body.' },
      },
    },
  ],
);
