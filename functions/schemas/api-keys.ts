import { z } from 'zod';
import { environments } from '#core/auth/api-key-format';
import { isIpRange } from '#core/auth/ip-allowlist';
import { isKnownScope } from '#core/auth/scopes';
import { idPattern } from '#core/ids';
import { tierNames } from '#core/tiers';
import { resourceName, timestamp } from './common.ts';

export const apiKeyId = z.string().regex(idPattern('apiKey'), 'must be an API key id (key_...)');

const scope = z.string().refine(isKnownScope, { message: 'is not a known scope' });

export const createApiKeyBody = z.strictObject({
  name: resourceName,
  scopes: z.array(scope).min(1).max(50).optional(),
  rate_limit_tier: z.enum(tierNames).optional(),
  environment: z.enum(environments).optional(),
  workspace_id: z.string().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  allowed_ips: z
    .array(z.string().refine(isIpRange, { message: 'must be an IP address or CIDR range (v4 or v6)' }))
    .max(100)
    .optional(),
});

export const rotateApiKeyBody = z.strictObject({
  grace_period_hours: z.int().min(0).max(720).default(24).describe('How long the old key keeps working; 0 ends it at once.'),
});

export const apiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('sk_{environment}_ plus the first 8 random characters'),
    scopes: z.array(z.string()),
    rate_limit_tier: z.enum(tierNames),
    environment: z.enum(environments),
    workspace_id: z.string(),
    allowed_ips: z.array(z.string()),
    last_used_at: timestamp.nullable(),
    expires_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiKey', description: 'An API key as lists and gets show it: never the key itself.' });

export const createdApiKey = apiKey
  .extend({ key: z.string().describe('the full key; shown in this response only') })
  .meta({ id: 'CreatedApiKey' });

export const rotatedApiKey = createdApiKey
  .extend({ grace_period_ends_at: timestamp.describe('Until when the old key keeps working') })
  .meta({ id: 'RotatedApiKey' });
