import { adminRoutes } from './admin/routes.ts';
import { apiKeyRoutes } from './api-keys/routes.ts';
import { contentRoutes } from './content/routes.ts';
import { entitlementRoutes } from './entitlements/routes.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { mcpProtocolRoutes } from './mcp-protocol/routes.ts';
import { namespaceRoutes } from './namespaces/routes.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { pixelRoutes } from './pixel/routes.ts';
import { seoRoutes } from './seo/routes.ts';
import { sessionRoutes } from './sessions/routes.ts';
import { userRoutes } from './users/routes.ts';
import { webhookDeliveryRoutes } from './webhook-deliveries/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { workspaceRoutes } from './workspaces/routes.ts';

/**
 * THE route registry, composed from each resource folder's own routes.ts. The key is the
 * Lambda function (the folder) that serves them. The CDK RestApi, the local gateway, the
 * list of functions, scope enforcement and openapi.yaml are all derived from it: an
 * endpoint is one entry in its folder's table plus its handler.
 */
export const routeTables = {
  workspaces: workspaceRoutes,
  'api-keys': apiKeyRoutes,
  users: userRoutes,
  sessions: sessionRoutes,
  admin: adminRoutes,
  oauth: oauthRoutes,
  entitlements: entitlementRoutes,
  namespaces: namespaceRoutes,
  webhooks: webhookRoutes,
  'webhook-deliveries': webhookDeliveryRoutes,
  content: contentRoutes,
  seo: seoRoutes,
  mcp: mcpRoutes,
  'mcp-protocol': mcpProtocolRoutes,
  pixel: pixelRoutes,
} as const;

type RouteTables = typeof routeTables;
export type LambdaFunctionName = keyof RouteTables;

/** The routes of one function, each tagged with the function's name. */
export type RoutesOf<F extends LambdaFunctionName> = RouteTables[F][number] & { function: F };
export type AppRoute = { [F in LambdaFunctionName]: RoutesOf<F> }[LambdaFunctionName];
export type OperationId = AppRoute['operationId'];

export const lambdaFunctions = Object.keys(routeTables) as LambdaFunctionName[];

export const routes: readonly AppRoute[] = lambdaFunctions.flatMap((name) =>
  routeTables[name].map((route) => ({ ...route, function: name }) as AppRoute),
);
