import type { Environment } from '#core/platform/environments';
import { randomBase62, sha256 } from '#core/platform/secrets';

/**
 * API keys look like `sk_live_<base62>`. The prefix (`sk_live_` and the start of the random
 * part) is stored in clear to find the key; the whole key is verified with bcrypt.
 */

/** Base62 characters after `sk_{environment}_`. */
export const apiKeyRandomLength = 32;
/** Of those, the ones the stored prefix keeps. */
export const apiKeyLookupLength = 8;

const keyPattern = new RegExp(`^sk_(live|test)_([0-9A-Za-z]{${apiKeyRandomLength}})$`);

export interface ParsedApiKey {
  environment: Environment;
  prefix: string;
}

export const generateApiKey = (environment: Environment): string => `sk_${environment}_${randomBase62(apiKeyRandomLength)}`;

/** Splits a well-formed key into its environment and lookup prefix; undefined otherwise. */
export function parseApiKey(key: string): ParsedApiKey | undefined {
  const match = keyPattern.exec(key);
  if (!match) return undefined;
  const environment = match[1] as Environment;
  return { environment, prefix: `sk_${environment}_${match[2]!.slice(0, apiKeyLookupLength)}` };
}

/** In-memory digest for the warm-process cache; never stored. */
export const keyDigest = sha256;
