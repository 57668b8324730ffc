import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invokeOperation, type OperationCaller, refusalOf } from '#core/http/operation-invocation';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { openapiUri, resourceTemplates, workspaceRoot } from './resource-templates.ts';
import type { ToolCatalogue } from './tool-catalogue.ts';

/** A resource's contents, as MCP's resources/read gives them. */
export interface ResourceContents {
  uri: string;
  mimeType: string;
  text: string;
}

/**
 * openapi.yaml beside the function: the stack copies it into the mcp bundle's folder
 * (lib/bundling.ts); the local runner reads the repository's own.
 */
const openapiPath = process.env.LAMBDA_TASK_ROOT
  ? join(process.env.LAMBDA_TASK_ROOT, 'openapi.yaml')
  : fileURLToPath(new URL('../../../openapi.yaml', import.meta.url));
let openapiText: Promise<string> | undefined;

/** The route and ids a tenant:// URI names, if it names one this credential may read. */
function routeOf(catalogue: ToolCatalogue, caller: Pick<OperationCaller, 'principal'>, uri: string) {
  if (!uri.startsWith(workspaceRoot)) return undefined;
  const [workspaceId, collection, id, ...rest] = uri.slice(workspaceRoot.length).split('/');
  if (!workspaceId || rest.length || (collection !== undefined && !id)) return undefined;
  const wanted = collection ?? 'workspaces';
  const template = resourceTemplates(catalogue, caller).find((t) => t.route.path === `/${wanted}/{id}`);
  return template && { route: template.route, workspaceId, id: id ?? workspaceId };
}

/**
 * Reads a resource: openapi.yaml, or a tenant's record through its get-one operation, as
 * the caller (another tenant's, or one the credential's scopes do not reach, is the
 * operation's own 404 or 403). Anything else is 404.
 */
export async function readResource(deps: Deps, catalogue: ToolCatalogue, caller: OperationCaller, uri: string): Promise<ResourceContents> {
  if (uri === openapiUri) return { uri, mimeType: 'application/yaml', text: await (openapiText ??= readFile(openapiPath, 'utf8')) };
  const named = routeOf(catalogue, caller, uri);
  if (!named) throw new NotFound('mcp resource', uri);
  const answer = await invokeOperation(deps.routeInvoker, { ...caller, workspaceId: named.workspaceId }, named.route, {
    params: { id: named.id },
    query: {},
  });
  // A URI whose ids are not ids, or in a workspace the caller is no member of, names nothing of the caller's.
  const body = answer.body as { error_code?: string };
  if (answer.status === 422 || body.error_code === 'ACCESS_DENIED') throw new NotFound('mcp resource', uri);
  if (answer.status >= 400) throw refusalOf(answer);
  return { uri, mimeType: 'application/json', text: JSON.stringify((answer.body as { data: unknown }).data) };
}
