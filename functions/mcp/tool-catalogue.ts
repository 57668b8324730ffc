import * as z from 'zod/mini';
import type { Route } from '#core/http/route-types';
import { routes } from '#routes';

/**
 * The service's own operations as MCP tools, grouped into servers by resource, all made
 * from the route registry: a tool's name from its operation id, its description from the
 * route's summary, its parameters from the route's zod schemas (path, query and body
 * together), never restated. What a tool may do is what its route may: it runs through
 * dispatch as the caller's credential.
 */

export interface ToolParameter {
  type: string;
  description: string;
  required: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  parameters: Record<string, ToolParameter>;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
  /** The route it runs as. */
  route: Route;
}

export interface McpServer {
  id: string;
  name: string;
  description: string;
  tools: McpTool[];
}

/** A tool name: the operation id in snake_case (`listPosts` → `list_posts`), as MCP clients expect. */
export const toolNameOf = (operationId: string): string => operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The context parameters every route takes: a tool acts in the caller's workspace, as its credential does. */
const contextParameters = new Set(['workspace_id', 'namespace_id']);

/**
 * Routes an API client's credential calls for itself: not the public ones (how a credential
 * is got), not the platform admin's, not those of a browser's session alone, not pages.
 */
const isTool = (route: Route): boolean =>
  route.auth === 'credential' &&
  // MCP's own routes are how tools are found, not tools.
  !route.scope.startsWith('mcp:') &&
  !route.platformAdmin &&
  !(route.credentials && !route.credentials.includes('api_key')) &&
  !Object.values(route.responses).some((response) => response.html);

interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
}

/** The JSON type a client sends for a schema: its `type`, or the first of its alternatives that has one. */
function typeOf(schema: JsonSchema): string {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? 'string';
  const typed = schema.anyOf?.map(typeOf).find((type) => type !== 'null');
  return typed ?? 'string';
}

/** The parameters of one object schema (a route's path, query or body), as the client sends them. */
function parametersOf(schema: z.ZodMiniType | undefined): Record<string, ToolParameter> {
  if (!schema) return {};
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(json.required ?? []);
  return Object.fromEntries(
    Object.entries(json.properties ?? {})
      .filter(([name]) => !contextParameters.has(name))
      .map(([name, property]) => [name, { type: typeOf(property), description: property.description ?? '', required: required.has(name) }]),
  );
}

/** One route as a tool. */
function toolOf(route: Route): McpTool {
  return {
    name: toolNameOf(route.operationId),
    description: route.summary,
    parameters: { ...parametersOf(route.params), ...parametersOf(route.query), ...parametersOf(route.body) },
    annotations: {
      readOnlyHint: route.method === 'GET',
      destructiveHint: route.method === 'DELETE',
      idempotentHint: route.method === 'GET' || route.method === 'PUT' || route.method === 'DELETE',
    },
    route,
  };
}

/** A server's id from its resource's tag: `API keys` → `api-keys`. */
const serverIdOf = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** The built-in servers: one per resource (route tag) that has tools, in the registry's order. */
export function mcpServers(from: readonly Route[] = routes): McpServer[] {
  const byTag = new Map<string, McpTool[]>();
  for (const route of from.filter(isTool)) byTag.set(route.tag, [...(byTag.get(route.tag) ?? []), toolOf(route)]);
  return [...byTag].map(([tag, tools]) => ({
    id: serverIdOf(tag),
    name: tag,
    description: `The ${tag} operations of this service as tools: ${tools.map((tool) => tool.name).join(', ')}.`,
    tools,
  }));
}
