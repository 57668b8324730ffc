import * as z from 'zod/mini';
import { isIpRange } from '#core/access/ip-allowlist';
import { isKnownScope } from '#core/access/scopes';
import { idOf, resourceName, timestamp } from '#core/platform/common-schemas';
import { environments } from '#core/platform/environments';
import { describe, withMeta } from '#core/platform/schema-meta';
import { tierNames } from '#core/platform/tiers';
import { apiKeyLookupLength } from './api-key-format.ts';
import { keyStatuses } from './api-key-status.ts';

export const apiKeyId = idOf('apiKey', 'an API key id');

const scope = z.string().check(z.refine(isKnownScope, { message: 'is not a known scope' }));

export const createApiKeyBody = withMeta(
  z.strictObject({
    name: resourceName,
    scopes: z.optional(z.array(scope).check(z.minLength(1), z.maxLength(50))),
    rate_limit_tier: z.optional(z.enum(tierNames)),
    environment: z.optional(z.enum(environments)),
    workspace_id: z.optional(z.string()),
    expires_at: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
    allowed_ips: z.optional(
      z.array(z.string().check(z.refine(isIpRange, { message: 'must be an IP address or CIDR range (v4 or v6)' }))).check(z.maxLength(100)),
    ),
  }),
  { examples: [{ name: 'Staging deploys', scopes: ['posts:read', 'posts:write'], environment: 'test' }] },
);

export const rotateApiKeyBody = z.strictObject({
  grace_period_hours: describe(
    z._default(z.int().check(z.gte(0), z.lte(720)), 24),
    'How long the old key keeps working; 0 ends it at once.',
  ),
});

export const apiKey = withMeta(
  z.object({
    id: z.string(),
    name: z.string(),
    prefix: describe(z.string(), `sk_{environment}_ plus the first ${apiKeyLookupLength} random characters`),
    scopes: z.array(z.string()),
    rate_limit_tier: z.enum(tierNames),
    environment: z.enum(environments),
    workspace_id: z.string(),
    allowed_ips: z.array(z.string()),
    last_used_at: z.nullable(timestamp),
    expires_at: z.nullable(timestamp),
    status: describe(
      z.enum(keyStatuses),
      '`grace_period`: rotated, works until `grace_period_ends_at`; `expired`: past `expires_at`, answers TOKEN_EXPIRED until pruned.',
    ),
    grace_period_ends_at: describe(z.nullable(timestamp), 'When a rotated key stops working; null for a key not rotated.'),
    created_at: timestamp,
  }),
  { id: 'ApiKey', description: 'An API key as lists and gets show it: never the key itself.' },
);

export const revokedApiKey = withMeta(
  z.extend(apiKey, {
    status: describe(z.literal('revoked'), 'Revoked: it answers 401 from now on.'),
    revoked_at: describe(timestamp, 'When it was revoked.'),
  }),
  { id: 'RevokedApiKey', description: 'An API key as it was when revoked (the data of `api_key.revoked`).' },
);

export const createdApiKey = withMeta(z.extend(apiKey, { key: describe(z.string(), 'the full key; shown in this response only') }), {
  id: 'CreatedApiKey',
});

export const rotatedApiKey = withMeta(
  z.extend(createdApiKey, {
    grace_period_ends_at: describe(
      timestamp,
      "In this answer only, as the spec has it: the OLD key's grace period end, the same as `previous_key.grace_period_ends_at` (the new key has none: GET shows it null).",
    ),
    previous_key: describe(
      z.object({
        id: z.string(),
        grace_period_ends_at: describe(
          timestamp,
          'Until when the old key keeps working; now or earlier with grace_period_hours 0 (it is revoked).',
        ),
      }),
      'The key this one replaces.',
    ),
  }),
  {
    id: 'RotatedApiKey',
    description:
      "The new key, with `key` in full. Its expiry is the old key's unless the rotating credential expires first, and its IP list the part of the old one within the rotating credential's.",
  },
);
