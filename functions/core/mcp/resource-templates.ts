import type { OperationCaller } from '#core/http/operation-invocation';
import type { Route } from '#core/http/route-types';
import type { ToolCatalogue } from './tool-catalogue.ts';

/** The service's own description, as a resource. */
export const openapiUri = 'docs://openapi.yaml';

/** A get-one operation (`GET /posts/{id}`) as a resource: `tenant://workspaces/{workspace_id}/posts/{id}`. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  description: string;
  route: Route;
}

export const workspaceRoot = 'tenant://workspaces/';

/** The resources a credential may read: each get-one operation among its tools, the workspace itself at the root. */
export function resourceTemplates(catalogue: ToolCatalogue, caller: Pick<OperationCaller, 'principal'>): ResourceTemplate[] {
  return catalogue
    .visibleServers(caller)
    .flatMap((server) => server.tools)
    .filter((tool) => tool.route.method === 'GET' && /^\/[a-z-]+\/\{id\}$/.test(tool.route.path))
    .map(({ route }) => {
      const collection = route.path.split('/')[1]!;
      return {
        uriTemplate: collection === 'workspaces' ? `${workspaceRoot}{id}` : `${workspaceRoot}{workspace_id}/${collection}/{id}`,
        name: route.operationId,
        description: route.summary,
        route,
      };
    });
}
