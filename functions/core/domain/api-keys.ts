import type { EntityItem } from 'electrodb';
import { generateApiKey, parseApiKey, type Environment } from '../auth/api-key-format.ts';
import type { Principal } from '../auth/principal.ts';
import { grants } from '../auth/scopes.ts';
import type { Deps } from '../deps.ts';
import { AccessDenied, NotFound, ValidationFailed } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Database } from '../store/database.ts';
import type { Tier } from '../tiers.ts';

type ApiKeyItem = EntityItem<Database['entities']['apiKey']>;

export const defaultKeyScopes = ['*:read', '*:write'];

/** How long an expired key is kept (answering TOKEN_EXPIRED) before DynamoDB's TTL may drop it. */
export const expiredKeyRetentionSeconds = 30 * 24 * 3600;

export function apiKeyView(item: ApiKeyItem) {
  return {
    id: item.id,
    name: item.name,
    prefix: item.prefix,
    scopes: item.scopes,
    rate_limit_tier: item.rateLimitTier,
    environment: item.environment,
    workspace_id: item.workspaceId,
    last_used_at: item.lastUsedAt ?? null,
    expires_at: item.expiresAt ?? null,
    created_at: item.createdAt,
  };
}

export interface NewApiKey {
  name: string;
  scopes?: string[];
  rateLimitTier?: Tier;
  environment?: Environment;
  expiresAt?: string | null;
  /** A full key to store instead of a generated one (bootstrap with BOOTSTRAP_API_KEY). */
  plaintext?: string;
}

/** Stores a new key for `userId` in `workspaceId` and returns its view with the key, once. */
export async function issueApiKey(deps: Deps, userId: number, workspaceId: string, input: NewApiKey) {
  const now = deps.clock.now();
  if (input.expiresAt && Date.parse(input.expiresAt) <= now.getTime()) {
    throw new ValidationFailed({ expires_at: ['must be in the future'] });
  }
  let rateLimitTier = input.rateLimitTier;
  if (!rateLimitTier) {
    const { data: workspace } = await deps.db.entities.workspace.get({ id: workspaceId }).go();
    if (!workspace) throw new NotFound('workspace', workspaceId);
    rateLimitTier = workspace.tier;
  }
  const key = input.plaintext ?? generateApiKey(input.environment ?? 'live');
  const parsed = parseApiKey(key);
  if (!parsed) throw new ValidationFailed({ key: ['must look like sk_live_ or sk_test_ and 32 letters or digits'] });
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined;
  const { data } = await deps.db.entities.apiKey
    .create({
      id: newId('apiKey'),
      workspaceId,
      userId,
      name: input.name,
      prefix: parsed.prefix,
      keyHash: await deps.hasher.hash(key),
      scopes: input.scopes ?? defaultKeyScopes,
      rateLimitTier,
      environment: parsed.environment,
      expiresAt,
      createdAt: now.toISOString(),
      ttl: expiresAt ? Math.floor(Date.parse(expiresAt) / 1000) + expiredKeyRetentionSeconds : undefined,
    })
    .go();
  return { ...apiKeyView(data), key };
}

/** Creates a key on behalf of a credential, which can never grant more than it holds. */
export async function createApiKey(deps: Deps, principal: Principal, workspaceId: string, input: NewApiKey) {
  const scopes = input.scopes ?? defaultKeyScopes;
  const beyond = scopes.filter((scope) => !grants(principal.scopes, scope));
  if (beyond.length) {
    throw new AccessDenied(`A key cannot be given scopes its creator does not hold: ${beyond.join(', ')}.`);
  }
  return issueApiKey(deps, principal.userId, workspaceId, {
    ...input,
    scopes,
    environment: input.environment ?? principal.environment,
  });
}

export async function listApiKeys(deps: Deps, workspaceId: string) {
  const { data } = await deps.db.entities.apiKey.query.byWorkspace({ workspaceId }).go({ pages: 'all' });
  return data.map(apiKeyView);
}

async function loadApiKey(deps: Deps, workspaceId: string, id: string) {
  const { data } = await deps.db.entities.apiKey.get({ workspaceId, id }).go();
  if (!data) throw new NotFound('api_key', id);
  return data;
}

export async function getApiKey(deps: Deps, workspaceId: string, id: string) {
  return apiKeyView(await loadApiKey(deps, workspaceId, id));
}

export async function revokeApiKey(deps: Deps, workspaceId: string, id: string) {
  await loadApiKey(deps, workspaceId, id);
  await deps.db.entities.apiKey.delete({ workspaceId, id }).go();
}
