import * as z from 'zod/mini';
import { ownAccount, type Route } from '#core/route-types';
import { routes } from '#routes';
import { errorEnvelope } from '#schemas/common';

/**
 * openapi.yaml, derived from the route table and its zod schemas: nothing in it is written
 * by hand, so it cannot drift from what the service does (a test compares the committed file).
 */
type JsonSchema = Record<string, unknown>;

const componentSchemas: Record<string, JsonSchema> = {};

/** JSON Schema of a zod schema; named schemas (`withMeta(schema, { id })`) become shared components. */
function schemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  const { $schema: _, $defs, ...rest } = json;
  for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) componentSchemas[id] = relink(def);
  if (typeof rest.$ref === 'string') return relink(rest);
  const id = z.globalRegistry.get(schema)?.id;
  if (id) {
    componentSchemas[id] = relink(rest);
    return { $ref: `#/components/schemas/${id}` };
  }
  return relink(rest);
}

const relink = (schema: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'));

const errorResponses: Record<number, string> = {
  400: 'Malformed request: the body is not JSON, or not the form a form endpoint takes (INVALID_FORMAT); or an OAuth refusal (`error` as in RFC 6749).',
  401: 'No credential, or an invalid, revoked or expired one.',
  403: 'The credential lacks the scope (INSUFFICIENT_PERMISSIONS) or access is denied.',
  404: 'No such resource, or it belongs to another tenant (RESOURCE_NOT_FOUND).',
  405: 'The path exists but not with this method; see the Allow header.',
  409: 'Conflict with the current state (DUPLICATE_RESOURCE, STATE_CONFLICT).',
  413: 'The body is too large (PAYLOAD_TOO_LARGE).',
  422: 'Validation failed; `errors` names every bad field.',
  500: 'Our fault; quote the request_id.',
};

function errorStatuses(route: Route): number[] {
  const statuses = [405, 500];
  if (route.auth === 'credential') statuses.push(401, 403);
  if (route.params || route.enabledBy) statuses.push(404);
  if (route.body) statuses.push(400, 413);
  if (route.body || route.query || route.params) statuses.push(422);
  if (route.method === 'POST' || route.method === 'DELETE') statuses.push(409);
  return statuses.sort();
}

function parameters(route: Route) {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...propertySchema } = property;
      list.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: propertySchema,
      });
    }
  }
  return list;
}

const requestIdHeader = { 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } };

const bodyMediaType = (route: Route) => (route.bodyFormat === 'form' ? 'application/x-www-form-urlencoded' : 'application/json');

function operation(route: Route) {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      headers: requestIdHeader,
      ...(response.schema ? { content: { 'application/json': { schema: schemaOf(response.schema, 'output') } } } : {}),
    };
  }
  for (const status of errorStatuses(route)) responses[status] = { $ref: `#/components/responses/Error${status}` };
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.scope === ownAccount
      ? { description: "Any credential of the user may call it: it acts only on the caller's own account." }
      : route.scope
        ? { description: `Requires the scope \`${route.scope}\`.`, 'x-required-scope': route.scope }
        : {}),
    security: route.auth === 'credential' ? [{ bearerAuth: [] }, { basicAuth: [] }] : [],
    parameters: [...parameters(route), { $ref: '#/components/parameters/XWorkspaceId' }, { $ref: '#/components/parameters/XRequestId' }],
    ...(route.body
      ? { requestBody: { required: true, content: { [bodyMediaType(route)]: { schema: schemaOf(route.body, 'input') } } } }
      : {}),
    responses,
  };
}

const server = (url: string) => ({
  url,
  description: 'The deployed API Gateway stage or the local runner',
  variables: { base_url: { default: 'http://127.0.0.1:3000', description: 'Scheme, host and stage path' } },
});

export function openApiDocument(prefix = '/api/v1') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes as readonly Route[]) {
    // Routes mounted at the root (login, OAuth) live outside the versioned prefix.
    const pathItem = (paths[route.path] ??= route.mount === 'root' ? { servers: [server('{base_url}')] } : {});
    pathItem[route.method.toLowerCase()] = operation(route);
  }
  const errorSchema = schemaOf(errorEnvelope, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tenant API',
      version: '1.0.0',
      description:
        'Multi-tenant REST API: workspaces and API keys. Every error answers with one envelope ' +
        '(`error`, `error_code`, `message`, `request_id`, `meta`). Generated from functions/routes.ts.',
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    servers: [server(`{base_url}${prefix}`)],
    security: [{ bearerAuth: [] }, { basicAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: `${name} endpoints` })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer sk_live_…`' },
        basicAuth: { type: 'http', scheme: 'basic', description: 'The API key as user name, empty password' },
      },
      parameters: {
        XWorkspaceId: {
          name: 'X-Workspace-ID',
          in: 'header',
          required: false,
          description: "Act in another workspace of the credential's user (also `workspace_id` in the query).",
          schema: { type: 'string' },
        },
        XRequestId: {
          name: 'X-Request-ID',
          in: 'header',
          required: false,
          description: 'Your own request id (8-128 of A-Z a-z 0-9 . _ : -); echoed back, else one is made.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      },
      headers: {
        'X-Request-ID': { description: 'The id of this request; quote it when reporting a problem.', schema: { type: 'string' } },
      },
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([status, description]) => [
          `Error${status}`,
          { description, headers: requestIdHeader, content: { 'application/json': { schema: errorSchema } } },
        ]),
      ),
      schemas: Object.fromEntries(Object.entries(componentSchemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
