import * as z from 'zod/mini';
import type { Principal } from '#core/access/principal';
import { grants } from '#core/access/scopes';
import type { Route } from '#core/http/route-types';
import { asOnTheWire } from '#core/platform/schema-meta';

/**
 * The service's operations as MCP tools, made from the routes the MCP functions hand in: a
 * tool's name, description and parameters come from its route, never restated. A tool may do
 * what its route may, as it runs through dispatch with the caller's credential.
 */

export interface ToolParameter {
  type: string;
  description: string;
  required: boolean;
}

/** A JSON Schema, as far as the catalogue reads one. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  [keyword: string]: unknown;
}

/** A page of a list tool, unless the call asks for another: small, so that a model's context holds it. */
export const toolPageSize = 10;

/** Where an argument goes in the operation's request. */
export type ArgumentPlace = 'path' | 'query' | 'body';

export interface McpTool {
  name: string;
  description: string;
  parameters: Record<string, ToolParameter>;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
  /** The parameters as one JSON Schema object: MCP's `inputSchema`. */
  inputSchema: JsonSchema & { type: 'object' };
  /** What a success answers, where the route declares a JSON body: MCP's `outputSchema`. */
  outputSchema?: JsonSchema & { type: 'object' };
  /** The route it runs as, and where each of its arguments goes there. */
  route: Route;
  places: Record<string, ArgumentPlace>;
}

export interface McpServer {
  id: string;
  name: string;
  description: string;
  tools: McpTool[];
}

/** A tool name: the operation id in snake_case (`listPosts` → `list_posts`), as MCP clients expect. */
export const toolNameOf = (operationId: string): string => operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * A tool acts in the workspace its MCP request does (the credential's own, or the one the
 * request's X-Workspace-ID names), so the query's workspace_id is no argument of its own.
 */
const contextQueryParameters = new Set(['workspace_id']);

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

/** The JSON type a client sends for a schema: its `type`, or the first of its alternatives that has one. */
function typeOf(schema: JsonSchema): string {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? 'string';
  const typed = schema.anyOf?.map(typeOf).find((type) => type !== 'null');
  return typed ?? 'string';
}

/**
 * A schema as JSON Schema draft 7, which MCP clients' validators (Ajv's default) read, without
 * the `$schema` line; a parameter read from text as the number or boolean it stands for, as
 * openapi.yaml declares it (tool-calls.ts writes the argument back as text).
 */
function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io,
    target: 'draft-7',
    unrepresentable: 'any',
    override: asOnTheWire,
  }) as JsonSchema;
  return json;
}

/** The properties of one object schema (a route's path, query or body), as the client sends them, and which are required. */
function propertiesOf(schema: z.ZodMiniType | undefined, leaveOut: ReadonlySet<string> = new Set()) {
  const json = schema ? jsonSchemaOf(schema, 'input') : {};
  const properties = Object.entries(json.properties ?? {}).filter(([name]) => !leaveOut.has(name));
  return { properties, required: new Set(json.required ?? []) };
}

/**
 * An answer's schema, loosened: `fields` leaves properties out, and a result cut to the
 * size guard says so in `meta`, so neither `required` nor `additionalProperties` holds for
 * every answer a tool gives.
 */
function loosened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(loosened);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([keyword]) => keyword !== 'required' && keyword !== 'additionalProperties')
      .map(([keyword, value]) => [keyword, loosened(value)]),
  );
}

function outputSchemaOf(route: Route): McpTool['outputSchema'] {
  const success = Object.entries(route.responses).find(([status]) => Number(status) < 300)?.[1];
  if (!success?.schema) return undefined;
  const json = loosened(jsonSchemaOf(success.schema, 'output')) as JsonSchema;
  return json.type === 'object' ? (json as JsonSchema & { type: 'object' }) : undefined;
}

/** One route as a tool. */
function toolOf(route: Route): McpTool {
  const parts = [
    ['path', propertiesOf(route.params)],
    ['query', propertiesOf(route.query, contextQueryParameters)],
    ['body', propertiesOf(route.body)],
  ] as const;
  const places: Record<string, ArgumentPlace> = {};
  const properties: Record<string, JsonSchema> = {};
  const parameters: Record<string, ToolParameter> = {};
  for (const [place, part] of parts) {
    for (const [name, property] of part.properties) {
      // The query's namespace_id on a route that has it in its path (getNamespace) names the same namespace.
      if (places[name] === 'path' && place === 'query') continue;
      // Any other name in two places would be ambiguous as one argument.
      if (places[name]) throw new Error(`${route.operationId} takes ${name} in both ${places[name]} and ${place}.`);
      places[name] = place;
      properties[name] = property;
      if (place === 'query' && name === 'per_page')
        property.description = `Items per page; a tool asks for ${toolPageSize} unless given (at most 100).`;
      parameters[name] = { type: typeOf(property), description: property.description ?? '', required: part.required.has(name) };
    }
  }
  const required = Object.keys(parameters).filter((name) => parameters[name]!.required);
  const outputSchema = outputSchemaOf(route);
  return {
    name: toolNameOf(route.operationId),
    description: route.summary,
    parameters,
    annotations: {
      readOnlyHint: route.method === 'GET',
      destructiveHint: route.method === 'DELETE',
      idempotentHint: route.method === 'GET' || route.method === 'PUT' || route.method === 'DELETE',
    },
    inputSchema: { type: 'object', properties, ...(required.length && { required }) },
    ...(outputSchema && { outputSchema }),
    route,
    places,
  };
}

/** A server's id from its resource's tag: `API keys` → `api-keys`. */
const serverIdOf = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function serversOf(from: readonly Route[]): McpServer[] {
  const byTag = new Map<string, McpTool[]>();
  for (const route of from.filter(isTool)) byTag.set(route.tag, [...(byTag.get(route.tag) ?? []), toolOf(route)]);
  return [...byTag].map(([tag, tools]) => ({
    id: serverIdOf(tag),
    name: tag,
    description: `The ${tag} operations of this service as tools: ${tools.map((tool) => tool.name).join(', ')}.`,
    tools,
  }));
}

/** Whether a credential may call a tool: `mcp:write` and the route's scope, and for a test key, a route that keeps test records apart. */
const mayCall = (principal: Pick<Principal, 'scopes' | 'environment'>, { route }: McpTool) =>
  grants(principal.scopes, 'mcp:write') &&
  grants(principal.scopes, route.scope!) &&
  !(principal.environment === 'test' && route.method !== 'GET' && !route.keepsEnvironmentsApart);

/** The tools of one set of routes, grouped into servers: what both MCP functions list, find and call. */
export interface ToolCatalogue {
  /** The built-in servers: one per resource (route tag) that has tools, in the routes' order. */
  servers(): McpServer[];
  /** What of the catalogue a credential sees: the tools it may call (a narrow key's client reads few). */
  visibleServers(caller: { principal: Pick<Principal, 'scopes' | 'environment'> }): McpServer[];
  /** A tool of the catalogue by name, on the server named or on any, with its server. */
  findTool(name: string, server?: string): { server: McpServer; tool: McpTool } | undefined;
  /** The functions whose operations are tools: those an MCP function invokes. */
  functions(): string[];
}

/** The catalogue of the routes given; its servers are made once, when first asked for. */
export function toolCatalogue(routes: readonly Route[]): ToolCatalogue {
  let built: McpServer[] | undefined;
  const servers = () => (built ??= serversOf(routes));
  return {
    servers,
    visibleServers: (caller) =>
      servers()
        .map((server) => ({ ...server, tools: server.tools.filter((tool) => mayCall(caller.principal, tool)) }))
        .filter((server) => server.tools.length),
    findTool(name, server) {
      for (const candidate of servers()) {
        if (server !== undefined && candidate.id !== server) continue;
        const tool = candidate.tools.find((t) => t.name === name);
        if (tool) return { server: candidate, tool };
      }
      return undefined;
    },
    functions: () => [...new Set(servers().flatMap((server) => server.tools.map((tool) => tool.route.function)))],
  };
}
