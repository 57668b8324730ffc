import type { KnownScope } from '#core/access/scopes';
import { defaultWebhookDisableAfter } from '#core/platform/webhook-settings';

/**
 * The event catalogue: every type the service emits and what emits it, which subscriptions are
 * checked against; each type's payload schema is in functions/event-payloads.ts. Tests fail
 * when a type has no payload schema or never reaches an endpoint through the local runner.
 */
export const eventTypes = {
  'workspace.created': {
    description:
      "A workspace was created: sent to it and, when the creating request acted in another workspace (POST /workspaces), to that one's endpoints too.",
  },
  'workspace.updated': { description: "A workspace's name or settings changed (PATCH), or a platform admin changed its tier." },
  'workspace.deleted': {
    description:
      'A workspace was deleted with all it held (no events of their own); `data` is the workspace as it was. Sent to its endpoints and to those of the workspace the deleting request acted in.',
  },
  'workspace.suspended': {
    description: 'A platform admin suspended the workspace, or gave its suspension a new reason (`suspended_at` stays).',
  },
  'workspace.resumed': { description: 'A platform admin lifted the suspension.' },
  'api_key.created': { description: 'An API key was created; `data` never holds the key itself.' },
  'api_key.rotated': { description: 'An API key was rotated; `data` is the new key, without the key itself.' },
  'api_key.revoked': { description: 'An API key was revoked.' },
  'member.added': { description: 'A user joined the workspace: accepted an invitation, or was added by an operator.' },
  'invitation.created': { description: 'Someone was invited (POST /users), or invited again; `data` is what POST /users answered.' },
  'invitation.declined': { description: 'An invited user declined the invitation.' },
  'user.updated': { description: "A user's name, email, verification, password or tier changed; sent to their personal workspace." },
  'namespace.updated': {
    description:
      "A platform admin granted or revoked a package of the workspace's namespace (a user's own: sent to their personal workspace).",
  },
  'webhook.created': { description: 'A webhook endpoint was created; `data` never holds its secret.' },
  'webhook.updated': { description: 'A webhook endpoint was changed (PATCH).' },
  'webhook.deleted': { description: 'A webhook endpoint was deleted.' },
  'webhook.secret_rotated': { description: "A webhook endpoint's secret was rotated; `data` never holds it." },
  'webhook.disabled': { description: `A webhook endpoint was disabled after ${defaultWebhookDisableAfter} deliveries in a row failed.` },
  'webhook.test': { description: 'Sent by POST /webhooks/{id}/test to that endpoint only; never fanned out.', direct: true },
  'post.created': {
    description:
      'A post was created (POST /posts or a batch). `data.content` is there only for endpoints whose creator holds posts:read-content, in every post event.',
  },
  'post.updated': { description: "A post's title, slug, excerpt, content or categories changed, or it went back to draft." },
  'post.published': {
    description: 'A post was published (POST /posts/{id}/publish, or status published); `published_at` is set the first time only.',
  },
  'post.archived': { description: 'A post was archived; its `published_at` stays.' },
  'post.deleted': { description: 'A post was deleted; `data` is the post as it was.' },
  'category.created': { description: 'A category was created.' },
  'category.updated': { description: "A category's name, slug or description changed." },
  'category.deleted': {
    description:
      'A category was deleted and removed from its posts (which send no event of their own for it); `data` is the category as it was.',
  },
  'seo.report_created': { description: 'An SEO report was stored (POST /seo/report); `data` is the report with its issues.' },
} as const satisfies Record<string, { description: string; direct?: true }>;

/**
 * Types the spec names that this service never sends, and why: a subscription naming one
 * is refused with the reason, rather than accepted to wait forever.
 */
export const unsentEventTypes: Record<string, string> = {
  'user.created':
    'a new account belongs to no workspace yet, so no endpoint could hear of it; a workspace hears of a user joining through member.added',
  'link.clicked': 'this service has no tracked links',
  'qrcode.scanned': 'this service has no QR codes',
};

export type EventType = keyof typeof eventTypes;

export const eventTypeNames = Object.keys(eventTypes) as EventType[];

/** Whether `name` is a type of the catalogue: its own keys only, never Object.prototype's (`constructor`, `__proto__`). */
export const isEventType = (name: string): name is EventType => Object.hasOwn(eventTypes, name);

/** The resource an event type is about: `api_key` of `api_key.created`. */
export const resourceOf = (type: string): string => type.slice(0, type.lastIndexOf('.'));

/** The resources with events: `api_key`, `webhook`, ... */
type Resource = EventType extends `${infer R}.${string}` ? R : never;

/**
 * The scope that reads each resource: subscribing to its events needs it (an event carries
 * the resource as the API shows it), so that webhooks:write reads nothing its credential
 * could not read itself.
 */
const readScopeOf = {
  workspace: 'workspaces:read',
  api_key: 'api-keys:read',
  member: 'users:read',
  invitation: 'users:read',
  user: 'users:read',
  namespace: 'namespaces:read',
  webhook: 'webhooks:read',
  post: 'posts:read',
  category: 'categories:read',
  seo: 'seo:read',
} as const satisfies Record<Resource, KnownScope>;

/** The scope that reads what an event of `type` carries. */
export const readScopeOfType = (type: EventType): KnownScope => readScopeOf[resourceOf(type) as Resource];
