import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { contextQuery, createdOf, dataOf, fieldsOf } from '#core/platform/common-schemas';
import { deliveryStatuses } from '#core/store/entities/delivery-status';
import { deliveryId, retriedDelivery, testSendResult, webhookDelivery, webhookId } from '#core/webhooks/delivery-schemas';

const deliveryList = {
  fields: fieldsOf(webhookDelivery),
  sortable: ['created_at', 'last_attempt_at', 'attempt'],
  searchable: ['event_id', 'event_type'],
  statusField: 'status',
  statusValues: deliveryStatuses,
} as const satisfies ListSpec<keyof typeof webhookDelivery.shape>;

/** The routes of the webhook-deliveries function: an endpoint's delivery history and its deliveries, manual retries, test sends. */
export const webhookDeliveryRoutes = routeTable({ tag: 'Webhooks', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/{id}/deliveries',
    scope: 'webhooks:read',
    summary: "List a webhook endpoint's deliveries, newest first (status= is served by an index)",
    params: z.object({ id: webhookId }),
    query: listQuerySchema(deliveryList),
    list: deliveryList,
    responses: { 200: { description: 'A page of deliveries.', schema: listOf(webhookDelivery) } },
  },
  {
    operationId: 'getWebhookDelivery',
    method: 'GET',
    path: '/webhooks/{id}/deliveries/{delivery_id}',
    scope: 'webhooks:read',
    summary:
      "Get one of a webhook endpoint's deliveries: its state, what the receiver answered (status, start of the body) or why it failed, and its attempts",
    params: z.object({ id: webhookId, delivery_id: deliveryId }),
    responses: { 200: { description: 'The delivery.', schema: dataOf(webhookDelivery) } },
  },
  {
    operationId: 'retryWebhookDelivery',
    method: 'POST',
    // The spec's {webhook_id}: API Gateway takes one name per path level, and /webhooks/{id} is there already.
    path: '/webhooks/{id}/deliveries/{delivery_id}/retry',
    scope: 'webhooks:write',
    keepsEnvironmentsApart: true,
    summary: 'Retry a failed delivery by hand: back to pending with the next attempt number, queued at once',
    params: z.object({ id: webhookId, delivery_id: deliveryId }),
    errors: ['CANNOT_RETRY'],
    responses: { 200: { description: 'The delivery, pending again.', schema: createdOf(retriedDelivery) } },
  },
  {
    operationId: 'testWebhook',
    description:
      'A quick check of a receiver: the answer says what the endpoint replied (status, the start of its body, the time taken) or why it could not be reached.',
    method: 'POST',
    path: '/webhooks/{id}/test',
    scope: 'webhooks:write',
    keepsEnvironmentsApart: true,
    summary:
      'Send a signed webhook.test event to this endpoint now, and answer what came of it (not stored, not retried; 10 a minute per endpoint)',
    params: z.object({ id: webhookId }),
    responses: { 200: { description: 'What the endpoint answered, or why it did not.', schema: testSendResult } },
  },
]);
