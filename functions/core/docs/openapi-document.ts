/** The parts of openapi.yaml the documentation reads; the rest passes through untouched. */
export interface Server {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; description?: string }>;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-required-scope'?: string;
  parameters?: ({ $ref: string } | Parameter)[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description: string }>;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
}

export interface OpenApiDocument {
  info: { title: string; description?: string };
  servers?: Server[];
  paths: Record<string, { servers?: Server[] } & Record<string, Operation | Server[] | undefined>>;
  components?: { parameters?: Record<string, Parameter> };
  [other: string]: unknown;
}

const httpMethods = ['get', 'head', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation with its method and path, in the document's order. */
export function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const operation = item[method] as Operation | undefined;
      return operation ? [{ method: method.toUpperCase(), path, operation, servers: item.servers ?? document.servers ?? [] }] : [];
    }),
  );
}

const deployed = (servers: Server[] | undefined, baseUrl: string) =>
  servers?.map((server) =>
    server.variables?.base_url
      ? { ...server, variables: { ...server.variables, base_url: { ...server.variables.base_url, default: baseUrl } } }
      : server,
  );

/**
 * The document as this deployment serves it: every server's `{base_url}` defaults to the
 * base URL the request came through, so that a try-it call goes to this same service.
 */
export function servedDocument(document: OpenApiDocument, baseUrl: string): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      item.servers ? { ...item, servers: deployed(item.servers, baseUrl) } : item,
    ]),
  );
  return { ...document, servers: deployed(document.servers, baseUrl), paths };
}

/** A server's URL with its variables at their defaults. */
export const serverUrl = (server: Server | undefined): string =>
  (server?.url ?? '').replace(/\{(\w+)\}/g, (_, name: string) => server?.variables?.[name]?.default ?? '');
