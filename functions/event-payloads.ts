import * as z from 'zod/mini';
import { apiKey, revokedApiKey, rotatedApiKey } from '#core/api-keys/api-key-schemas';
import { category } from '#core/content/category-schemas';
import { post } from '#core/content/post-schemas';
import { type EventType, eventTypeNames } from '#core/events/event-types';
import { invitation, sentInvitation } from '#core/members/invitation-schemas';
import { namespaceWithPackages } from '#core/namespaces/namespace-schemas';
import { timestamp } from '#core/platform/common-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';
import { seoReport } from '#core/seo/seo-schemas';
import { workspace } from '#core/tenancy/workspace-schemas';
import { member, user } from '#core/users/user-schemas';
import { webhookEndpoint } from '#core/webhooks/endpoint-schemas';
import { adminWorkspace } from '#core/workspaces/admin-schemas';

/**
 * The payload (`data`) of every event type: the resource as the API returns it. openapi.yaml's
 * `webhooks` and the catalogue of docs/webhooks.md are made from these and the catalogue
 * (core/events/event-types.ts); a test fails when a type has none.
 */

const rotatedApiKeyEvent = withMeta(z.omit(rotatedApiKey, { key: true }), {
  id: 'RotatedApiKeyEventData',
  description: 'The new key as the rotation answered it, without the key itself.',
});

export const eventDataSchemas = {
  'workspace.created': workspace,
  'workspace.updated': workspace,
  'workspace.deleted': workspace,
  'workspace.suspended': adminWorkspace,
  'workspace.resumed': adminWorkspace,
  'api_key.created': apiKey,
  'api_key.rotated': rotatedApiKeyEvent,
  'api_key.revoked': revokedApiKey,
  'member.added': member,
  'invitation.created': sentInvitation,
  'invitation.declined': invitation,
  'user.updated': user,
  'namespace.updated': namespaceWithPackages,
  'webhook.created': webhookEndpoint,
  'webhook.updated': webhookEndpoint,
  'webhook.deleted': webhookEndpoint,
  'webhook.secret_rotated': webhookEndpoint,
  'webhook.disabled': webhookEndpoint,
  'webhook.test': webhookEndpoint,
  'post.created': post,
  'post.updated': post,
  'post.published': post,
  'post.archived': post,
  'post.deleted': post,
  'category.created': category,
  'category.updated': category,
  'category.deleted': category,
  'seo.report_created': seoReport,
} as const satisfies Record<EventType, z.ZodMiniType>;

const envelopeFields = {
  id: describe(z.string(), '`evt_` and a ULID: the same in every delivery of the event; de-duplicate by it.'),
  created_at: describe(timestamp, 'When the change happened.'),
  workspace_id: describe(z.string(), 'The workspace the event belongs to.'),
};

/** What every delivery's body is: `{ id, type, created_at, workspace_id, data }`. */
export const eventEnvelope = withMeta(z.object({ ...envelopeFields, type: z.enum(eventTypeNames), data: z.looseObject({}) }), {
  id: 'EventEnvelope',
  description: 'The body of every delivery; `data` is the resource as the API returns it (per type: the webhooks section).',
});

/** `api_key.rotated`'s envelope is the component ApiKeyRotatedEvent. */
const envelopeNameOf = (type: EventType) =>
  `${type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Event`;

/** The envelope of each type, with its `data` schema. */
export const typedEnvelopes = Object.fromEntries(
  eventTypeNames.map((type) => [
    type,
    withMeta(z.object({ ...envelopeFields, type: z.literal(type), data: eventDataSchemas[type] }), { id: envelopeNameOf(type) }),
  ]),
) as unknown as Record<EventType, z.ZodMiniType>;
