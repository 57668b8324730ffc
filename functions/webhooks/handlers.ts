import type { Principal } from '#core/access/principal';
import { handlersFor } from '#core/http/handlers';
import { listPage } from '#core/lists/list-page';
import type { EndpointManager } from '#core/webhooks/endpoint-access';
import type { EndpointOwner } from '#core/webhooks/endpoint-view';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  webhookEndpointsOf,
} from '#core/webhooks/endpoints';
import { rotateWebhookSecret } from '#core/webhooks/secret-rotation';
import type { webhookRoutes } from './routes.ts';

/** The endpoints a request acts on: its workspace's, in its credential's environment. */
const ownerOf = ({ principal, workspaceId }: { principal: Principal; workspaceId: string }): EndpointOwner => ({
  workspaceId,
  environment: principal.environment,
});

/** The same endpoints, changed by the request's credential. */
const managerOf = (request: { principal: Principal; workspaceId: string }): EndpointManager => ({
  ...ownerOf(request),
  actor: request.principal,
});

export const webhookHandlers = handlersFor<(typeof webhookRoutes)[number]>()({
  listWebhooks: async (request, deps) => ({
    status: 200,
    body: await listPage(webhookEndpointsOf(deps, ownerOf(request)), request.query, request.route.list, request.url),
  }),
  getWebhook: async (request, deps) => ({
    status: 200,
    body: { data: await getWebhookEndpoint(deps, ownerOf(request), request.params.id) },
  }),
  createWebhook: async (request, deps) => ({
    status: 201,
    body: {
      message: 'Webhook endpoint created. Store the secret now: it is not shown again.',
      data: await createWebhookEndpoint(deps, managerOf(request), request.body),
    },
  }),
  updateWebhook: async ({ body, ...request }, deps) => ({
    status: 200,
    body: {
      message: 'Webhook endpoint updated.',
      data: await updateWebhookEndpoint(deps, managerOf(request), request.params.id, {
        url: body.url,
        events: body.events,
        isActive: body.is_active,
      }),
    },
  }),
  deleteWebhook: async (request, deps) => {
    await deleteWebhookEndpoint(deps, managerOf(request), request.params.id);
    return { status: 204 };
  },
  rotateWebhookSecret: async (request, deps) => ({
    status: 200,
    body: {
      message: 'Webhook secret rotated. Store the new secret now: it is not shown again.',
      data: await rotateWebhookSecret(deps, managerOf(request), request.params.id, request.body.grace_period_hours),
    },
  }),
});
