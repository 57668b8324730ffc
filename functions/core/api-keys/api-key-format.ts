import type { Environment } from '#core/platform/environments';
import { randomBase62, sha256 } from '#core/platform/secrets';

/**
 * API keys look like `sk_live_<32 base62>`. The prefix (`sk_live_` plus the first 8 random
 * characters) is stored in clear to find the key; the whole key is verified with bcrypt.
 */

const keyPattern = /^sk_(live|test)_([0-9A-Za-z]{32})$/;
const lookupLength = 8;

export interface ParsedApiKey {
  environment: Environment;
  prefix: string;
}

export const generateApiKey = (environment: Environment): string => `sk_${environment}_${randomBase62(32)}`;

/** Splits a well-formed key into its environment and lookup prefix; undefined otherwise. */
export function parseApiKey(key: string): ParsedApiKey | undefined {
  const match = keyPattern.exec(key);
  if (!match) return undefined;
  const environment = match[1] as Environment;
  return { environment, prefix: `sk_${environment}_${match[2]!.slice(0, lookupLength)}` };
}

/** In-memory digest for the warm-process cache; never stored. */
export const keyDigest = sha256;
