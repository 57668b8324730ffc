import { taggedRoutes } from '#core/http/route-table';
import type { Route } from '#core/http/route-types';
import { adminRoutes } from './admin/routes.ts';
import { apiKeyRoutes } from './api-keys/routes.ts';
import { contentRoutes } from './content/routes.ts';
import { entitlementRoutes } from './entitlements/routes.ts';
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
 * The route tables of every function but the two MCP functions, keyed by the function that
 * serves them: the operations the MCP functions serve as tools. The registry (routes.ts)
 * adds the MCP functions' own tables; the MCP functions read these, not the registry, which
 * holds theirs.
 */
export const operationRouteTables = {
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
  pixel: pixelRoutes,
} as const;

/** Their routes, each tagged with its function: what the MCP definitions hand to their tool catalogue. */
export const operationRoutes: readonly Route[] = taggedRoutes(operationRouteTables);
