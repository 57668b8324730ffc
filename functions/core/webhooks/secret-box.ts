import { hkdfSync, randomBytes } from 'node:crypto';
import { decrypt, encrypt } from '#core/platform/aes-gcm';
import { type SecretField, UnreadableSecret, type WebhookSecretBox } from '#core/ports/webhook-secrets';

/**
 * Sealed secrets: AES-256-GCM under a key kept outside the table, so that an export or backup
 * of the table holds no usable secret (docs/webhooks.md). The endpoint's id and the field are
 * bound as additional data, so that a ciphertext copied to another endpoint or field fails to
 * open.
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
