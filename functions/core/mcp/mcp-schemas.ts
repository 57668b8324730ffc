import * as z from 'zod/mini';
import { describe, withMeta } from '#core/platform/schema-meta';

export const serverId = describe(
  z.string().check(z.regex(/^[a-z0-9-]{1,64}$/, 'must be a server id: lower-case letters, digits and hyphens (posts, api-keys)')),
  'A server id, as GET /mcp/servers lists them.',
);

const parameter = z.object({
  type: z.string(),
  description: z.string(),
  required: z.boolean(),
});

export const mcpTool = withMeta(
  z.object({
    name: describe(z.string(), 'The operation id in snake_case.'),
    description: z.string(),
    parameters: describe(z.record(z.string(), parameter), "The operation's path, query and body parameters, from its schemas."),
    annotations: z.object({ readOnlyHint: z.boolean(), destructiveHint: z.boolean(), idempotentHint: z.boolean() }),
  }),
  { id: 'McpTool', description: 'An API operation as an MCP tool.' },
);

export const mcpServer = withMeta(
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    tools: describe(z.array(z.string()), 'The names of the tools your credential may call.'),
  }),
  {
    id: 'McpServer',
    description: "A built-in MCP server: one resource's operations as tools.",
    examples: [
      {
        id: 'posts',
        name: 'Posts',
        description: 'The Posts operations of this service as tools: list_posts, get_post.',
        tools: ['list_posts', 'get_post'],
      },
    ],
  },
);

export const toolCall = z.object({
  server: describe(serverId, 'The server the tool is on, as GET /mcp/servers lists it.'),
  tool: describe(
    z.string().check(z.regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a tool name: snake_case, as the server lists it (list_posts)')),
    'The tool, as the server lists it.',
  ),
  arguments: describe(
    z._default(z.record(z.string(), z.unknown()), {}),
    "The tool's parameters by name (GET /mcp/servers/{id}/tools): path, query and body alike.",
  ),
});

const textContent = z.object({ type: z.literal('text'), text: z.string() });

export const toolCallResult = withMeta(
  z.object({
    result: z.object({
      content: describe(z.array(textContent), "MCP content blocks: the operation's JSON answer as text."),
      size: describe(z.number(), 'The size of the content in bytes (UTF-8).'),
      truncated: describe(
        z.boolean(),
        'Whether the answer was cut to about 25,000 tokens; a cut list says in meta.cut how to ask for the rest.',
      ),
    }),
  }),
  { id: 'McpToolCallResult', description: "A tool's result: the operation's answer as MCP content." },
);

export const resourceUri = describe(
  z.string().check(z.minLength(1), z.maxLength(2048)),
  'The resource URI, URL-encoded or with its slashes as they are: tenant://workspaces/{id}, tenant://workspaces/{id}/posts/{id} (categories, webhooks, api-keys ...), docs://openapi.yaml.',
);

export const mcpResource = withMeta(
  z.object({
    uri: z.string(),
    mime_type: describe(z.string(), 'application/json for a record, application/yaml for openapi.yaml.'),
    text: describe(z.string(), 'The contents: the record as the API answers it (its `data`), or the document.'),
  }),
  { id: 'McpResource', description: 'A resource as MCP reads it.' },
);

/** A JSON-RPC 2.0 message, as the MCP SDK reads it (it answers any fault of one in JSON-RPC's own terms). */
export const jsonRpcMessage = describe(
  z.looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.optional(z.union([z.string(), z.number()])),
    method: z.optional(z.string()),
    params: z.optional(z.record(z.string(), z.unknown())),
  }),
  'A JSON-RPC 2.0 request or notification: initialize, tools/list, tools/call, resources/list, resources/templates/list, resources/read, ping.',
);
