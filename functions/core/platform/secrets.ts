import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += base62[randomInt(base62.length)];
  return out;
}

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Compares two secrets in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(sha256(a));
  const right = Buffer.from(sha256(b));
  return timingSafeEqual(left, right);
}
