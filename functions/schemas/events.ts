import * as z from 'zod/mini';
import { eventTypeNames, type EventType } from '#core/events/event-types';
import { describe, withMeta } from '#core/schema-meta';
import { adminWorkspace } from './admin.ts';
import { apiKey, revokedApiKey, rotatedApiKey } from './api-keys.ts';
import { timestamp } from './common.ts';
import { invitation, sentInvitation } from './invitations.ts';
import { namespace, namespacePackage } from './namespaces.ts';
import { member, user } from './users.ts';
import { webhookEndpoint } from './webhooks.ts';
import { workspace } from './workspaces.ts';

/**
 * The payload (`data`) of every event type: the resource as the API returns it. openapi.yaml's
 * `webhooks` and the README's catalogue are made from these and the catalogue
 * (core/events/event-types.ts); a test fails when a type has none.
 */

const rotatedApiKeyEvent = withMeta(z.omit(rotatedApiKey, { key: true }), {
  id: 'RotatedApiKeyEventData',
  description: 'The new key as the rotation answered it, without the key itself.',
});

const namespaceWithPackages = withMeta(z.extend(namespace, { packages: describe(z.array(namespacePackage), 'The packages in force.') }), {
  id: 'NamespaceWithPackages',
  description: 'A namespace with the packages now in force.',
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
