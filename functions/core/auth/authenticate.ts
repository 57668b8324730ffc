import type { Deps } from '../deps.ts';
import { hotPath } from '../store/database.ts';
import { InvalidApiKey, TokenExpired, Unauthenticated } from '../errors.ts';
import { keyDigest, parseApiKey } from './api-key-format.ts';
import type { Principal } from './principal.ts';

/**
 * Where a verified key lives, by the SHA-256 digest of the full key. Held only in this
 * process's memory, so bcrypt runs once per key per warm process; the stored record is
 * still read on every request, so revocation and expiry take effect at once.
 */
const verifiedKeys = new Map<string, { workspaceId: string; id: string }>();
const maxVerifiedKeys = 10_000;

/** The credential in an Authorization header: `Bearer <key>`, or Basic with the key as user name. */
export function credentialFrom(authorization: string | undefined): string {
  if (!authorization?.trim()) throw new Unauthenticated();
  const [scheme, value = ''] = authorization.trim().split(/\s+/, 2);
  switch (scheme?.toLowerCase()) {
    case 'bearer':
      if (value) return value;
      break;
    case 'basic': {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
      if (user) return user;
      break;
    }
  }
  throw new Unauthenticated('Send the API key as "Authorization: Bearer <key>" or as the Basic user name.');
}

async function findByPrefix(deps: Deps, key: string, prefix: string) {
  const { data: candidates } = await deps.db.entities.apiKey.query.byPrefix({ prefix }).go();
  for (const candidate of candidates) {
    if (await deps.hasher.compare(key, candidate.keyHash)) return { workspaceId: candidate.workspaceId, id: candidate.id };
  }
  return undefined;
}

function remember(digest: string, location: { workspaceId: string; id: string }) {
  if (verifiedKeys.size >= maxVerifiedKeys) verifiedKeys.delete(verifiedKeys.keys().next().value!);
  verifiedKeys.set(digest, location);
}

export async function authenticateApiKey(deps: Deps, key: string): Promise<Principal> {
  const parsed = parseApiKey(key);
  if (!parsed) throw new InvalidApiKey('The API key is malformed: expected sk_live_ or sk_test_ and 32 letters or digits.');
  const digest = keyDigest(key);
  const location = verifiedKeys.get(digest) ?? (await findByPrefix(deps, key, parsed.prefix));
  if (!location) throw new InvalidApiKey();
  // The index read above may trail a revocation; this read by primary key does not.
  const { data: item } = await deps.db.entities.apiKey.get(location).go({ ...hotPath, consistent: true });
  const now = deps.clock.now();
  if (!item || (item.ttl !== undefined && item.ttl * 1000 <= now.getTime())) {
    verifiedKeys.delete(digest);
    throw new InvalidApiKey();
  }
  remember(digest, location);
  if (item.expiresAt && Date.parse(item.expiresAt) <= now.getTime()) throw new TokenExpired(item.expiresAt);
  return {
    userId: item.userId,
    workspaceId: item.workspaceId,
    environment: item.environment,
    scopes: item.scopes,
    tier: item.rateLimitTier,
    credential: { type: 'api_key', id: item.id },
  };
}
