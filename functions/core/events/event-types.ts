/**
 * The event catalogue: every type the service emits, what emits it, and whether an
 * endpoint receives it only when it names it exactly (the high-volume types). The payload
 * schema of each type is in functions/schemas/events.ts, which openapi.yaml's `webhooks`
 * and the README's catalogue are made from. One source of truth: subscriptions are checked
 * against it, and a test fails when a type has no payload schema.
 */
export const eventTypes = {
  'workspace.created': { description: 'A workspace was created (POST /workspaces, registration).' },
  'workspace.updated': { description: 'A workspace was renamed, or its tier changed.' },
  'workspace.deleted': { description: 'A workspace was deleted; `data` is the workspace as it was.' },
  'workspace.suspended': { description: 'A platform admin suspended the workspace.' },
  'workspace.resumed': { description: 'A platform admin lifted the suspension.' },
  'api_key.created': { description: 'An API key was created; `data` never holds the key itself.' },
  'api_key.rotated': { description: 'An API key was rotated; `data` is the new key, without the key itself.' },
  'api_key.revoked': { description: 'An API key was revoked.' },
  'member.added': { description: 'A user joined the workspace (added, or accepted an invitation).' },
  'invitation.created': { description: 'A user was invited to the workspace.' },
  'invitation.declined': { description: 'An invited user declined.' },
  'user.created': { description: 'A user registered or was created; sent to their personal workspace.' },
  'user.updated': { description: "A user's name, email, verification or password changed; sent to their personal workspace." },
  'user_token.created': { description: 'A personal access token was created; sent to its user\'s personal workspace.' },
  'user_token.revoked': { description: "A personal access token was revoked; sent to its user's personal workspace." },
  'namespace.updated': { description: "A package was granted to or revoked from the workspace's namespace." },
  'webhook.created': { description: 'A webhook endpoint was created; `data` never holds its secret.' },
  'webhook.updated': { description: 'A webhook endpoint was changed (PATCH).' },
  'webhook.deleted': { description: 'A webhook endpoint was deleted.' },
  'webhook.secret_rotated': { description: "A webhook endpoint's secret was rotated; `data` never holds it." },
  'webhook.disabled': { description: 'A webhook endpoint was disabled after 15 deliveries in a row failed.' },
  'webhook.test': { description: 'Sent by POST /webhooks/{id}/test to that endpoint only; never fanned out.', direct: true },
  'link.clicked': { description: 'A tracked link was clicked (opt-in: only when named exactly).', optIn: true },
  'qrcode.scanned': { description: 'A QR code was scanned (opt-in: only when named exactly).', optIn: true },
} as const satisfies Record<string, { description: string; optIn?: true; direct?: true }>;

export type EventType = keyof typeof eventTypes;

export const eventTypeNames = Object.keys(eventTypes) as EventType[];

/** The resource an event type is about: `api_key` of `api_key.created`. */
export const resourceOf = (type: string): string => type.slice(0, type.lastIndexOf('.'));
