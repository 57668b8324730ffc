import * as z from 'zod/mini';
import { idempotencyRetentionSeconds } from '#core/http/idempotency/idempotent-requests';
import { idempotencyKeyPattern, takesIdempotencyKey } from '#core/http/idempotency/idempotent-routes';
import { requestIdLength, requestIdPattern } from '#core/http/proxy-event';
import { documentedPath, type Route } from '#core/http/route-types';
import type { ErrorCode, JsonSchema } from '#core/platform/error-catalogue';
import { asOnTheWire } from '#core/platform/schema-meta';
import { routes } from '#routes';
import { apiContact, apiLicense, operationDescription, serviceDescription } from './openapi/descriptions.ts';
import {
  errorCodeSchema,
  errorEnvelopeSchema,
  errorResponsesOf,
  errorSchemaName,
  headerComponents,
  headersOf,
} from './openapi/error-responses.ts';
import { addExamples } from './openapi/examples.ts';
import { errorCodesOf } from './openapi/route-errors.ts';
import { anyCredential, securityOf, securitySchemes } from './openapi/security.ts';
import { tagsOf } from './openapi/tags.ts';
import { webhookHeaderParameters, webhooksOf } from './openapi/webhooks.ts';

/**
 * openapi.yaml, derived from the route table, its zod schemas and the error catalogue:
 * nothing in it is written by hand, so it cannot drift from what the service does (a test
 * compares the committed file, and the e2e tests check every answer against it).
 */
const componentSchemas: Record<string, JsonSchema> = {};

/** JSON Schema of a zod schema; named schemas (`withMeta(schema, { id })`) become shared components. */
function schemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline', override: asOnTheWire }) as JsonSchema;
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

const relink = (schema: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'));

function parameters(route: Route) {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
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

const htmlContent = { 'text/html': { schema: { type: 'string' } } };

const bodyMediaTypes = (route: Route) =>
  route.bodyFormat === 'form'
    ? ['application/x-www-form-urlencoded']
    : route.bodyFormat === 'beacon'
      ? ['application/json', 'text/plain']
      : ['application/json'];

function operation(route: Route) {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      // Every answer to an accepted credential reports its rate limit (README, Rate limits).
      headers: {
        ...headersOf(route.auth === 'credential'),
        ...(takesIdempotencyKey(route) ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } } : {}),
      },
      ...(response.schema || response.html
        ? {
            content: {
              ...(response.schema ? { 'application/json': { schema: schemaOf(response.schema, 'output') } } : {}),
              ...(response.html ? htmlContent : {}),
            },
          }
        : {}),
    };
  }
  Object.assign(responses, errorResponsesOf(route));
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    description: operationDescription(route),
    ...(route.scope ? { 'x-required-scope': route.scope } : {}),
    security: securityOf(route),
    parameters: [
      ...parameters(route),
      { $ref: '#/components/parameters/XWorkspaceId' },
      { $ref: '#/components/parameters/XRequestId' },
      ...(takesIdempotencyKey(route) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
      // A route that can refuse a namespace reads the namespace context.
      ...(route.errors?.includes('NAMESPACE_ACCESS_DENIED') ? [{ $ref: '#/components/parameters/XNamespaceId' }] : []),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(bodyMediaTypes(route).map((type) => [type, { schema: schemaOf(route.body!, 'input') }])),
          },
        }
      : {}),
    responses,
  };
}

/** Every GET also answers HEAD: the same statuses and headers, no body. */
function headOperation(get: ReturnType<typeof operation>) {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => {
      const { content: _, ...withoutBody } = response as { content?: unknown };
      return [status, withoutBody];
    }),
  );
  return { ...get, operationId: `${get.operationId}Head`, summary: `${get.summary} (headers only)`, responses };
}

/** Where the local runner listens by default: the document's base URL until a deployment serves it at its own. */
const localBaseUrl = 'http://127.0.0.1:3000';

const server = (url: string) => ({
  url,
  description: 'The deployed API Gateway stage or the local runner',
  variables: { base_url: { default: localBaseUrl, description: 'Scheme, host and stage path' } },
});

export function openApiDocument(prefix = '/api/v1') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes as readonly Route[]) {
    // Routes mounted at the root (login, OAuth) live outside the versioned prefix.
    const pathItem = (paths[documentedPath(route.path)] ??= route.mount === 'root' ? { servers: [server('{base_url}')] } : {});
    pathItem[route.method.toLowerCase()] = operation(route);
    // A redirect (OAuth authorize) has no headers worth asking for alone.
    if (route.method === 'GET' && 200 in route.responses) pathItem.head = headOperation(operation(route));
  }
  const errorCodes = [...new Set((routes as readonly Route[]).flatMap(errorCodesOf))].sort() as ErrorCode[];
  for (const code of errorCodes) componentSchemas[errorSchemaName(code)] = errorCodeSchema(code);
  componentSchemas.Error = errorEnvelopeSchema;
  const webhooks = webhooksOf(schemaOf);
  addExamples(paths, componentSchemas);
  addExamples(webhooks, componentSchemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tenant API',
      version: '1.0.0',
      description: serviceDescription,
      contact: apiContact(localBaseUrl),
      license: apiLicense,
    },
    servers: [server(`{base_url}${prefix}`)],
    security: anyCredential,
    ...tagsOf([...new Set(routes.map((r) => r.tag)), 'Events']),
    paths,
    webhooks,
    components: {
      securitySchemes: securitySchemes(prefix),
      parameters: {
        XWorkspaceId: {
          name: 'X-Workspace-ID',
          in: 'header',
          required: false,
          description: "Act in another workspace of the credential's user (also `workspace_id` in the query).",
          schema: { type: 'string' },
        },
        XNamespaceId: {
          name: 'X-Namespace-ID',
          in: 'header',
          required: false,
          description: 'Act in this namespace (also `namespace_id` in the query): one you may use, else 403 NAMESPACE_ACCESS_DENIED.',
          schema: { type: 'string' },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            `A key of yours (a UUID) that makes retrying safe: for ${idempotencyRetentionSeconds / 3600} hours a repeat gets the first answer again with ` +
            '`Idempotent-Replayed: true`; a repeat while the first runs is 409 RESOURCE_LOCKED; the key with another request is 422.',
          schema: { type: 'string', pattern: idempotencyKeyPattern.source },
        },
        XRequestId: {
          name: 'X-Request-ID',
          in: 'header',
          required: false,
          description: `Your own request id (${requestIdLength.min}-${requestIdLength.max} of A-Z a-z 0-9 . _ : -); echoed back, else one is made.`,
          schema: { type: 'string', pattern: requestIdPattern.source },
        },
        ...webhookHeaderParameters,
      },
      headers: {
        ...headerComponents,
        'Idempotent-Replayed': {
          description: 'Present on a repeat of an Idempotency-Key: this is the first request’s stored answer.',
          required: false,
          schema: { type: 'string', enum: ['true'] },
        },
      },
      schemas: Object.fromEntries(Object.entries(componentSchemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
