import { z } from 'zod';

/**
 * Runtime configuration, parsed once from the environment. Every Lambda and the local
 * runner read configuration through here, so a bad value fails at start with its name.
 */
const schema = z.object({
  TABLE_NAME: z.string().min(1).default('tenant-api-local'),
  DYNAMODB_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  API_PREFIX: z
    .string()
    .regex(/^(\/[a-z0-9-]+)+$/, 'must look like /api/v1')
    .default('/api/v1'),
  DEBUG_ERRORS: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  SECURE_COOKIES: z
    .enum(['0', '1'])
    .default('1')
    .transform((v) => v === '1'),
});

export type Config = z.infer<typeof schema>;

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
