import { randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets in the Standard Webhooks form: `whsec_` and the base64 of random
 * bytes. The service signs with the whole string (X-Webhook-Signature) and with the decoded
 * bytes (webhook-signature), so receivers can verify with either scheme's libraries.
 */
export const secretPrefix = 'whsec_';

/** The strength of a secret the service generates. */
export const generatedSecretBytes = 32;
/** Bounds on a client's own secret: at least as strong as Svix's (24 bytes), at most one HMAC-SHA256 block. */
export const secretBytes = { min: 24, max: 64 } as const;

/** The longest grace period a rotation may give the old secret: a week. */
export const maxSecretGraceHours = 168;

export const generateWebhookSecret = (): string => secretPrefix + randomBytes(generatedSecretBytes).toString('base64');

/**
 * Whether a client's secret can be used by every Standard Webhooks library: `whsec_` and
 * canonical, padded base64 (some languages' decoders refuse anything else) of 24 to 64 bytes.
 */
export function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(secretPrefix)) return false;
  const encoded = secret.slice(secretPrefix.length);
  const bytes = Buffer.from(encoded, 'base64');
  return bytes.toString('base64') === encoded && bytes.length >= secretBytes.min && bytes.length <= secretBytes.max;
}
