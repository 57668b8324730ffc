import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { contextQuery, createdOf, dataOf, fieldsOf, noContent } from '#core/platform/common-schemas';
import {
  createdWebhookEndpoint,
  createWebhookBody,
  rotatedWebhookSecret,
  rotateWebhookSecretBody,
  updateWebhookBody,
  webhookEndpoint,
  webhookId,
} from '#core/webhooks/endpoint-schemas';

const webhookList = {
  fields: fieldsOf(webhookEndpoint),
  sortable: ['url', 'is_active', 'success_count', 'failure_count', 'consecutive_failures', 'last_delivery_at', 'created_at', 'updated_at'],
  searchable: ['url'],
  filters: { is_active: ['true', 'false'] },
} as const satisfies ListSpec<keyof typeof webhookEndpoint.shape>;

/**
 * The routes of the webhooks function: the endpoints of the acting workspace in the acting
 * credential's environment (a test key manages test endpoints only). Deliveries, test
 * sends and retries are the webhook-deliveries function's.
 */
export const webhookRoutes = routeTable({ tag: 'Webhooks', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/webhooks',
    scope: 'webhooks:read',
    summary: "List the workspace's webhook endpoints in your credential's environment (never their secrets)",
    query: listQuerySchema(webhookList),
    list: webhookList,
    responses: { 200: { description: 'A page of webhook endpoints.', schema: listOf(webhookEndpoint) } },
  },
  {
    operationId: 'getWebhook',
    method: 'GET',
    path: '/webhooks/{id}',
    scope: 'webhooks:read',
    summary: 'Get a webhook endpoint with its delivery counters',
    params: z.object({ id: webhookId }),
    responses: { 200: { description: 'The webhook endpoint.', schema: dataOf(webhookEndpoint) } },
  },
  {
    operationId: 'createWebhook',
    description:
      "Each event the endpoint subscribes to is POSTed to its URL, signed with the endpoint's secret (`X-Webhook-Signature`: hex HMAC-SHA256 of `<timestamp>.<body>`; and Standard Webhooks' `webhook-signature`). The secret is in this answer only. Failed deliveries are retried on a ladder; an endpoint that keeps failing is disabled.",
    method: 'POST',
    path: '/webhooks',
    scope: 'webhooks:write',
    keepsEnvironmentsApart: true,
    summary: 'Create a webhook endpoint; the response shows its secret once',
    body: createWebhookBody,
    errors: ['ENTITLEMENT_DENIED'],
    responses: { 201: { description: 'The new endpoint, with `secret` in full.', schema: createdOf(createdWebhookEndpoint) } },
  },
  {
    operationId: 'updateWebhook',
    method: 'PATCH',
    path: '/webhooks/{id}',
    scope: 'webhooks:write',
    keepsEnvironmentsApart: true,
    summary: "Change a webhook endpoint's URL, events or is_active",
    params: z.object({ id: webhookId }),
    body: updateWebhookBody,
    responses: { 200: { description: 'The endpoint as changed.', schema: createdOf(webhookEndpoint) } },
  },
  {
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/webhooks/{id}',
    scope: 'webhooks:delete',
    keepsEnvironmentsApart: true,
    summary: 'Delete a webhook endpoint; nothing more is sent to it',
    params: z.object({ id: webhookId }),
    responses: { 204: noContent },
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    scope: 'webhooks:write',
    keepsEnvironmentsApart: true,
    summary: 'Rotate the signing secret: the old one keeps signing beside the new one for the grace period',
    params: z.object({ id: webhookId }),
    body: rotateWebhookSecretBody,
    responses: {
      200: {
        description: 'The endpoint with its new `secret` in full, and until when the old one signs.',
        schema: createdOf(rotatedWebhookSecret),
      },
    },
  },
]);
