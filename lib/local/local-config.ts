import { z } from 'zod';
import { parseApiKey } from '#core/auth/api-key-format';

/** The local runner contract of DECISIONS.md, parsed once; a bad value names its variable. */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  BOOTSTRAP_API_KEY: z
    .string()
    .refine((key) => parseApiKey(key) !== undefined, 'must be a full sk_live_… or sk_test_… key (32 letters or digits)')
    .optional(),
  BOOTSTRAP_EMAIL: z.email().optional(),
  BOOTSTRAP_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DYNAMODB_ENDPOINT: z.url().optional(),
  TABLE_NAME: z.string().regex(/^[A-Za-z0-9_.-]{3,255}$/).default('tenant-api-local'),
  AWS_REGION: z.string().default('us-east-1'),
  API_PREFIX: z.string().default('/api/v1'),
  /** How often the pruning job runs (the local stand-in for the hourly schedule in AWS). */
  PRUNE_INTERVAL_SECONDS: z.coerce.number().positive().max(86_400).default(60),
});

export type LocalConfig = z.infer<typeof schema>;

export function parseLocalConfig(env: NodeJS.ProcessEnv): LocalConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
  }
  return parsed.data;
}
