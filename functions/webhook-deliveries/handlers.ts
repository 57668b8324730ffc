import { handlersFor } from '#core/http/handlers';
import { listPage } from '#core/lists/list-page';
import type { DeliveryStatus } from '#core/store/entities/delivery-status';
import { deliveriesOf, getDelivery, retryDelivery } from '#core/webhooks/deliveries';
import { loadWebhookEndpoint } from '#core/webhooks/endpoint-view';
import { sendTestEvent } from '#core/webhooks/test-send';
import type { webhookDeliveryRoutes } from './routes.ts';

export const webhookDeliveryHandlers = handlersFor<(typeof webhookDeliveryRoutes)[number]>()({
  listWebhookDeliveries: async ({ principal, workspaceId, params, query, route, url }, deps) => {
    const endpoint = await loadWebhookEndpoint(deps, { workspaceId, environment: principal.environment }, params.id);
    // A status is its own index (a key range, as the list itself), so it is no filter of the page; newest first unless sorted.
    const { status, ...rest } = query;
    return {
      status: 200,
      body: await listPage(
        deliveriesOf(deps, endpoint.id, status as DeliveryStatus | undefined),
        { ...rest, sort: rest.sort ?? ['-created_at'] },
        route.list,
        url,
      ),
    };
  },
  getWebhookDelivery: async ({ principal, workspaceId, params }, deps) => ({
    status: 200,
    body: { data: await getDelivery(deps, { workspaceId, environment: principal.environment }, params.id, params.delivery_id) },
  }),
  retryWebhookDelivery: async ({ principal, workspaceId, params }, deps) => ({
    status: 200,
    body: {
      message: 'The delivery is queued for another attempt.',
      data: await retryDelivery(deps, { workspaceId, environment: principal.environment }, params.id, params.delivery_id),
    },
  }),
  testWebhook: async ({ principal, workspaceId, params }, deps) => ({
    status: 200,
    body: await sendTestEvent(deps, await loadWebhookEndpoint(deps, { workspaceId, environment: principal.environment }, params.id)),
  }),
});
