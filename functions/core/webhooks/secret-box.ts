import { hkdfSync, randomBytes } from 'node:crypto';
import { decrypt, encrypt } from '#core/platform/aes-gcm';
import { type SecretField, UnreadableSecret, type WebhookSecretBox } from '#core/ports/webhook-secrets';

/**
 * Endpoints' signing secrets at rest (docs/webhooks.md, Webhook endpoints and secrets). A secret is
 * stored as `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts): AES-256-GCM under a
 * key of WEBHOOK_SECRET_KEYS, which lives outside the table (Secrets Manager in AWS, the
 * configuration or DATA_DIR locally), so an export or backup of the table holds no usable
 * secret. The format's version, the key's id, the endpoint's id and the field are bound as
 * additional authenticated data: a ciphertext copied to another endpoint, or from the
 * previous secret's field to the current one's, fails to open.
 *
 * The key id names which key of the list sealed a secret, so that the key can be rotated:
 * the first key of the list seals, every listed key opens.
 */
const formatVersion = 'v1';

interface SealingKey {
  /** 8 base64url characters, derived from the key: the same key has the same id in every process. */
  id: string;
  key: Buffer;
}

/** The AES key and the id of a configured key (any string of 32 characters or more, as Secrets Manager generates one). */
const sealingKeyOf = (material: string): SealingKey => ({
  id: Buffer.from(hkdfSync('sha256', material, '', 'tenant-api webhook secret key id', 6)).toString('base64url'),
  key: Buffer.from(hkdfSync('sha256', material, '', 'tenant-api webhook secret encryption key', 32)),
});

const boundTo = (keyId: string, endpointId: string, field: SecretField) =>
  Buffer.from([formatVersion, keyId, endpointId, field].join('\0'));

/** The box of a key list: the first key seals, each of them opens what it sealed. */
export function webhookSecretBox(keys: readonly string[]): WebhookSecretBox {
  const ring = keys.map(sealingKeyOf);
  const current = ring[0];
  if (!current) throw new Error('A webhook secret box needs at least one key.');
  const byId = new Map(ring.map((key) => [key.id, key]));
  return {
    seal(secret, endpointId, field) {
      const { iv, tag, text } = encrypt(current.key, secret, boundTo(current.id, endpointId, field));
      return [formatVersion, current.id, ...[iv, tag, text].map((part) => part.toString('base64url'))].join('.');
    },
    open(sealed, endpointId, field) {
      const [version, keyId = '', ...parts] = sealed?.split('.') ?? [];
      const key = version === formatVersion && parts.length === 3 ? byId.get(keyId) : undefined;
      if (!key) throw new UnreadableSecret(`The ${field} of webhook endpoint ${endpointId} is sealed with no configured key.`);
      const [iv, tag, text] = parts.map((part) => Buffer.from(part, 'base64url'));
      try {
        return decrypt(key.key, { iv: iv!, tag: tag!, text: text! }, boundTo(key.id, endpointId, field));
      } catch {
        throw new UnreadableSecret(`The ${field} of webhook endpoint ${endpointId} does not open: it was altered or belongs elsewhere.`);
      }
    },
  };
}

/** A fresh key in the form WEBHOOK_SECRET_KEYS takes. */
export const generateSecretKey = (): string => randomBytes(32).toString('base64url');

let processKeys: string[] | undefined;

/**
 * The key of a process that is given none: drawn once, so that every set of dependencies
 * the process builds (the local runner's with DATA_DIR=memory, the tests') shares it.
 */
export const processSecretKeys = (): string[] => (processKeys ??= [generateSecretKey()]);
