import * as z from 'zod/mini';
import { parseApiKey } from '#core/api-keys/api-key-format';
import { flag, mailFrom, parseSettings, publicBaseUrl, storeSettings } from '#core/platform/config';

const port = (min: number) => z.pipe(z.coerce.number(), z.int().check(z.gte(min), z.lte(65535)));

/**
 * The local runner contract of docs/decisions.md: the core store settings (TABLE_NAME,
 * DYNAMODB_ENDPOINT, AWS_REGION) plus what only the runner has. How the service behaves
 * (API_PREFIX, the feature flags, LOG_LEVEL) is the core config(), the same as in Lambda.
 */
const localSettings = z.extend(storeSettings, {
  PORT: z._default(port(0), 3000),
  HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  DATA_DIR: z._default(z.string().check(z.minLength(1)), '.data'),
  /** Where DynamoDB Local listens; unset, a free port. Fixed, the admin command printed at start stays valid. */
  DYNAMODB_PORT: z.optional(port(1)),
  BOOTSTRAP_API_KEY: z.optional(
    z.string().check(z.refine((key) => parseApiKey(key) !== undefined, 'must be a full sk_live_… or sk_test_… key (32 letters or digits)')),
  ),
  BOOTSTRAP_EMAIL: z.optional(z.email()),
  BOOTSTRAP_PASSWORD: z.optional(z.string().check(z.minLength(8))),
  /** `0` silences the one-line request log. */
  LOG_REQUESTS: flag('1'),
  /** Where each outgoing message is written as an `.eml` file; unset, `<DATA_DIR>/mail` (a temporary folder for `DATA_DIR=memory`). */
  MAIL_DIR: z.optional(z.string().check(z.minLength(1))),
  /** The sender of outgoing mail, as in Lambda (core config). */
  MAIL_FROM: mailFrom,
  /** The base of links in mail; unset, where the runner listens (http://HOST:PORT). */
  PUBLIC_BASE_URL: publicBaseUrl,
  /** How often the pruning job runs (the local stand-in for the hourly schedule in AWS). */
  PRUNE_INTERVAL_SECONDS: z._default(z.pipe(z.coerce.number(), z.number().check(z.gt(0), z.lte(86_400))), 60),
  /** How often the gateway key reconciliation job runs (the local stand-in for the hourly schedule in AWS). */
  RECONCILE_INTERVAL_SECONDS: z._default(z.pipe(z.coerce.number(), z.number().check(z.gt(0), z.lte(86_400))), 3600),
});

export type LocalConfig = z.infer<typeof localSettings>;

export const parseLocalConfig = (env: NodeJS.ProcessEnv): LocalConfig => parseSettings(localSettings, env);
