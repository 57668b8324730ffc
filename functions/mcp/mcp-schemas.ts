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
  { id: 'McpServer', description: "A built-in MCP server: one resource's operations as tools." },
);
