import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** One AES-256-GCM message: its random 96-bit IV, its authentication tag and the ciphertext. */
export interface GcmMessage {
  iv: Buffer;
  tag: Buffer;
  text: Buffer;
}

/**
 * Encrypts `plaintext` under a 32-byte key with a fresh random IV. `aad` (additional
 * authenticated data) is not stored in the message, but decryption fails unless given the same.
 */
export function encrypt(key: Buffer, plaintext: string, aad?: Buffer): GcmMessage {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(aad);
  const text = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), text };
}

/** The plaintext of a message; throws if the key, the AAD or any byte of the message differs. */
export function decrypt(key: Buffer, { iv, tag, text }: GcmMessage, aad?: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  if (aad) decipher.setAAD(aad);
  return Buffer.concat([decipher.update(text), decipher.final()]).toString('utf8');
}
