import { apiKeysOf, createApiKey, getApiKey, revokeApiKey, rotateApiKey } from '#core/api-keys/api-keys';
import { resolveWorkspace } from '#core/http/acting-workspace';
import { handlersFor } from '#core/http/handlers';
import { listPage } from '#core/lists/list-page';
import type { apiKeyRoutes } from './routes.ts';

export const apiKeyHandlers = handlersFor<(typeof apiKeyRoutes)[number]>()({
  listApiKeys: async ({ workspaceId, query, route, url }, deps) => ({
    status: 200,
    body: await listPage(apiKeysOf(deps, workspaceId), query, route.list, url),
  }),
  getApiKey: async ({ workspaceId, params }, deps) => ({
    status: 200,
    body: { data: await getApiKey(deps, workspaceId, params.id) },
  }),
  createApiKey: async ({ principal, workspaceId, body }, deps) => {
    const home = await resolveWorkspace(deps, principal, body.workspace_id ?? workspaceId);
    const created = await createApiKey(deps, principal, home, {
      name: body.name,
      scopes: body.scopes,
      rateLimitTier: body.rate_limit_tier,
      environment: body.environment,
      expiresAt: body.expires_at,
      allowedIps: body.allowed_ips,
    });
    return { status: 201, body: { message: 'API key created. Store the key now: it is not shown again.', data: created } };
  },
  rotateApiKey: async ({ principal, workspaceId, params, body }, deps) => ({
    status: 200,
    body: {
      message: 'API key rotated. Store the new key now: it is not shown again.',
      data: await rotateApiKey(deps, principal, workspaceId, params.id, body.grace_period_hours),
    },
  }),
  deleteApiKey: async ({ principal, workspaceId, params }, deps) => {
    await revokeApiKey(deps, principal, workspaceId, params.id);
    return { status: 204 };
  },
});
