import { docsRoot } from '#core/docs/return-path';

/**
 * The documentation's paths, at the root: not operations of the API, so outside the route
 * registry and openapi.yaml; API Gateway and the local runner hand every method on them to this
 * function.
 */
export const docsPaths = {
  /** The pages, behind the web session. */
  pages: { [docsRoot]: 'swagger', [`${docsRoot}/scalar`]: 'scalar', [`${docsRoot}/redoc`]: 'redoc' } as Record<string, Page>,
  login: `${docsRoot}/login`,
  /** POST with the session and its XSRF token: a fresh test key for the try-it form. */
  tryItKey: `${docsRoot}/try-it-key`,
  /** The bundles and the pages' own scripts and styles, public (they hold nothing of the service's). */
  assets: `${docsRoot}/assets/`,
  openapiJson: '/api/openapi.json',
  openapiYaml: '/api/openapi.yaml',
  llmsIndex: '/api/llms.txt',
  /** `/api/llms/{operationId}.md`. */
  llmsPages: '/api/llms/',
} as const;

export type Page = 'swagger' | 'scalar' | 'redoc';

/** The API Gateway resources that carry these paths, below the root: what lib/constructs/docs-routes.ts adds. */
export const docsResources = ['api/docs', 'api/docs/{proxy+}', 'api/openapi.json', 'api/openapi.yaml', 'api/llms.txt', 'api/llms/{proxy+}'];

/** Whether a path is the documentation's, whatever its method: the local runner hands these to the docs function. */
export const isDocsPath = (path: string): boolean =>
  path === docsRoot ||
  path.startsWith(`${docsRoot}/`) ||
  path === docsPaths.openapiJson ||
  path === docsPaths.openapiYaml ||
  path === docsPaths.llmsIndex ||
  path.startsWith(docsPaths.llmsPages);
