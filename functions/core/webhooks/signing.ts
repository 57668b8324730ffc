import { createHmac } from 'node:crypto';

/** The secrets that sign a send: the endpoint's own, and the one it replaced while its grace period lasts. */
export interface SigningSecrets {
  secret: string;
  previousSecret?: string;
  previousSecretExpiresAt?: string;
}

/** What a send is about: the event's id and type, and the exact bytes of its body. */
export interface SignedMessage {
  eventId: string;
  eventType: string;
  body: string;
}

/** Whether a rotation's previous secret still signs at `now`: until its grace period ends. */
export const previousSecretSigns = (expiresAt: string | undefined, now: Date): boolean =>
  expiresAt !== undefined && Date.parse(expiresAt) > now.getTime();

/** The secrets that sign at `now`: the current one first, then the previous one until its grace period ends. */
function activeSecrets(secrets: SigningSecrets, now: Date): string[] {
  const { secret, previousSecret, previousSecretExpiresAt } = secrets;
  return previousSecret !== undefined && previousSecretSigns(previousSecretExpiresAt, now) ? [secret, previousSecret] : [secret];
}

/** The spec's signature: lowercase hex HMAC-SHA256 of `<timestamp>.<body>`, keyed with the secret string as it is. */
const hexSignature = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/**
 * The Standard Webhooks key: the base64 after `whsec_` decoded, as the `standardwebhooks`
 * and `svix` libraries read a secret (one without the prefix is read as base64 whole, as
 * they do too).
 */
const standardKeyOf = (secret: string): Buffer =>
  Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');

/** A Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`. */
const standardSignature = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac('sha256', standardKeyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;

/**
 * The headers of one send, signed at `now`, so that a receiver holding to a 300-second
 * tolerance accepts a retry made a day later. During a rotation's grace period each scheme
 * carries both signatures, the current secret's first; a receiver accepts when any one matches.
 */
export function signatureHeaders(secrets: SigningSecrets, message: SignedMessage, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const signing = activeSecrets(secrets, now);
  return {
    'Content-Type': 'application/json',
    'X-Webhook-Id': message.eventId,
    'X-Webhook-Event': message.eventType,
    'X-Webhook-Timestamp': String(timestamp),
    'X-Webhook-Signature': signing.map((secret) => hexSignature(secret, timestamp, message.body)).join(','),
    'webhook-id': message.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signing.map((secret) => standardSignature(secret, message.eventId, timestamp, message.body)).join(' '),
  };
}
