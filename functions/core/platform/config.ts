import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { type Tier, tierNames } from './tiers.ts';
import './validation-messages.ts';

/**
 * Runtime configuration, parsed once from the environment. Every Lambda, the local runner
 * and the admin CLI read configuration through here, so a bad value fails at start with
 * its name. zod/mini, because the authorizer bundle has no other use for zod and must stay small.
 */
export const flag = (fallback: '0' | '1') =>
  z.pipe(
    z._default(z.enum(['0', '1']), fallback),
    z.transform((v) => v === '1'),
  );

const isOrigin = (value: string) => {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
};

/**
 * Which table, where: what a set of dependencies is built from (createDeps). One process
 * may open several (the tests, the bench), so these are passed, not read globally.
 */
export const storeSettings = z.object({
  TABLE_NAME: z._default(
    z.string().check(z.regex(/^[A-Za-z0-9_.-]{3,255}$/, 'must be 3 to 255 letters, digits, _, . or -')),
    'tenant-api-local',
  ),
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
});

export type StoreSettings = z.infer<typeof storeSettings>;

/** A JSON value in one variable, checked against `schema`. */
const json = <S extends z.ZodMiniType>(schema: S) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((value, ctx) => {
        try {
          return JSON.parse(value) as unknown;
        } catch {
          ctx.issues.push({ code: 'custom', input: value, message: 'must be JSON' });
          return z.NEVER;
        }
      }),
    ),
    schema,
  );

/** An object with one entry for every tier of the tier table. */
const perTier = <S extends z.ZodMiniType<string>>(value: S) =>
  json(z.object(Object.fromEntries(tierNames.map((tier) => [tier, value])) as Record<Tier, S>));

/**
 * Dedicated keys a deployment may hold by default: API Gateway allows 10,000 per account and
 * region, a quota that cannot be raised; the rest is left to other stacks and to mistakes.
 */
export const defaultGatewayKeyBudget = 9_000;

/** API Gateway refuses key values under 20 characters. */
const gatewayKeyValue = z.string().check(z.minLength(20));

/**
 * The usage plans and keys of API Gateway (functions/core/ports/gateway-keys.ts, adapters in functions/core/adapters/gateway-keys/): the stack sets them in
 * Lambda; without GATEWAY_USAGE_PLANS (the local runner, the tests, the admin CLI unless
 * told) keys are only recorded in memory. Like the store settings, these build a set of dependencies.
 */
export const gatewaySettings = z.object({
  /** `{"free":"<usage plan name>",...}`: the plan of each tier, where each workspace's own key goes. */
  GATEWAY_USAGE_PLANS: z.optional(perTier(z.string().check(z.minLength(1)))),
  /** `{"free":"<key value>",...}`: the key each tier's workspaces share once the budget is spent. */
  GATEWAY_SHARED_KEYS: z.optional(perTier(gatewayKeyValue)),
  /** The key value the authorizer returns for a refused credential. */
  GATEWAY_ANONYMOUS_KEY: z.optional(gatewayKeyValue),
  /** How many workspaces get a key of their own (API Gateway allows 10,000 per region, for every stack there). */
  // Checked on the string with checks the authorizer's bundle holds anyway: zod's number checks would add 4 KiB to it.
  GATEWAY_KEY_BUDGET: z.pipe(
    z._default(
      z.string().check(
        z.regex(/^\d{1,5}$/, 'must be a whole number'),
        z.refine((v) => Number(v) <= 10_000, 'must be at most 10000'),
      ),
      String(defaultGatewayKeyBudget),
    ),
    z.transform(Number),
  ),
  /** Starts the name of every key: the stack's name. */
  GATEWAY_KEY_NAME_PREFIX: z._default(z.string().check(z.minLength(1)), 'tenant-api'),
});

export type GatewaySettings = z.infer<typeof gatewaySettings>;

/** `https://api.example.com`: an origin, optionally with a path (a stage), without a trailing slash. */
export const publicBaseUrl = z.optional(z.url().check(z.refine((value) => !value.endsWith('/'), 'must not end with /')));

/** Where the functions' own metrics go unless METRICS_NAMESPACE says otherwise; the stack's alarms read it. */
export const defaultMetricsNamespace = 'TenantApi';

/**
 * The sender of outgoing mail: `no-reply@example.com` or `Example <no-reply@example.com>`.
 * The stack always sets it in Lambda; the default serves the local runner, whose mail stays in files.
 */
export const mailFrom = z._default(
  z.string().check(z.regex(/^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'must be an address or Name <address>')),
  'Tenant API <no-reply@localhost>',
);

/** `upgrade_url`: where a refusal at a plan's limit (entitlements, quotas) sends the client to buy more. */
export const upgradeUrl = z._default(z.url(), 'https://example.com/pricing');

/** `2027-01-31` or `2027-01-31T12:00:00Z`: a date the API's version is deprecated or sunset at (functions/core/http/deprecation.ts). */
export const isoInstant = z.optional(
  z.pipe(
    z
      .string()
      .check(
        z.refine(
          (value) =>
            /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !Number.isNaN(Date.parse(value)),
          'must be an ISO 8601 date like 2027-01-31 or 2027-01-31T12:00:00Z',
        ),
      ),
    z.transform((value) => new Date(value)),
  ),
);

/** Seconds, as a whole number from 1 to 86400: what a 503's Retry-After tells the client. */
const retryAfterSeconds = (fallback: string) =>
  z.pipe(
    z._default(
      z.string().check(
        z.regex(/^\d{1,5}$/, 'must be a whole number of seconds'),
        z.refine((v) => Number(v) >= 1 && Number(v) <= 86_400, 'must be from 1 to 86400'),
      ),
      fallback,
    ),
    z.transform(Number),
  );

const logLevels = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;

/** How the service behaves: one set per process, read through config() wherever needed. */
const serviceSettings = z.object({
  /** The API's path prefix, for the routes (pipeline), the fallback and the local gateway alike. */
  API_PREFIX: z._default(z.string().check(z.regex(/^(\/[a-z0-9-]+)+$/, 'must look like /api/v1')), '/api/v1'),
  /**
   * The version the prefix serves is deprecated from this date: every answer under the
   * prefix carries `Deprecation: @<unix seconds>` (RFC 9745). Unset: not deprecated.
   */
  API_DEPRECATED_AT: isoInstant,
  /** ...and goes away at this date: `Sunset: <HTTP-date>` (RFC 8594). Unset: no sunset announced. */
  API_SUNSET_AT: isoInstant,
  /** Where the deprecation notice is read: `Link: <url>; rel="deprecation"` (and `rel="sunset"` with a sunset). */
  API_DEPRECATION_LINK: z.optional(z.url()),
  /**
   * A deploy-time maintenance switch: every request but `/health` and the platform admin
   * routes answers 503 MAINTENANCE_MODE (login too: docs/errors.md). The admin CLI's `maintenance on`
   * is the switch that needs no deploy (core/operations/maintenance.ts).
   */
  MAINTENANCE_MODE: flag('0'),
  /** The Retry-After of MAINTENANCE_MODE=1's answers, in seconds. */
  MAINTENANCE_RETRY_AFTER: retryAfterSeconds('300'),
  DEBUG_ERRORS: flag('0'),
  /** `registration.enabled`: whether POST {base_url}/register is open. */
  REGISTRATION_ENABLED: flag('1'),
  /** `documentation.enabled`: whether /api/docs (and its Scalar and Redoc pages), /api/openapi.json, .yaml and /api/llms.txt answer. */
  DOCUMENTATION_ENABLED: flag('1'),
  /** `oauth.enabled`: whether {base_url}/oauth/* answer and OAuth access tokens are accepted. */
  OAUTH_ENABLED: flag('0'),
  /** Unset: INFO in Lambda (a JSON line per request), WARN elsewhere (errors only). */
  LOG_LEVEL: z.optional(z.enum(logLevels)),
  /** The CloudWatch namespace of the request metrics, which only Lambda emits. */
  METRICS_NAMESPACE: z._default(z.string().check(z.minLength(1)), defaultMetricsNamespace),
  /** Set by Lambda itself: telling it apart from the local runner, the tests and the CLI. */
  AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
  /**
   * Origins whose browser scripts may call the API (CORS): comma-separated
   * `scheme://host[:port]`, or `*` for any. Empty, the default: no cross-origin access.
   */
  CORS_ALLOWED_ORIGINS: z.pipe(
    z._default(z.string(), ''),
    z.transform((value, ctx) => {
      const origins = value
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const origin of origins) {
        if (origin !== '*' && !isOrigin(origin))
          ctx.issues.push({ code: 'custom', input: origin, message: `"${origin}" is not an origin like https://app.example.com` });
      }
      return origins;
    }),
  ),
  /**
   * Where clients reach the service (`https://api.example.com`, the custom domain): the base
   * of every link in outgoing mail. Unset in AWS: the API's own domain and stage, from the
   * request context API Gateway sets. Never taken from a Host header a client sent.
   */
  PUBLIC_BASE_URL: publicBaseUrl,
  MAIL_FROM: mailFrom,
  /** The SES configuration set every message is sent through (its events become metrics); the stack sets it, locally unused. */
  MAIL_CONFIGURATION_SET: z.optional(z.string().check(z.minLength(1))),
  UPGRADE_URL: upgradeUrl,
  /**
   * Signs list cursors (HMAC-SHA256). Every process serving one API must share it (sharedKey);
   * in Lambda it comes from the secret CURSOR_SIGNING_KEY_ARN names (secret-settings.ts).
   */
  CURSOR_SIGNING_KEY: z.optional(z.string().check(z.minLength(32, 'must be at least 32 characters'))),
  /**
   * The deployed name of each route function, by its folder (`{"content":"Stack-Content..."}`):
   * where the MCP function runs a tool's operation. Set by the stack for it alone.
   */
  ROUTE_FUNCTIONS: z.optional(json(z.record(z.string(), z.string()))),
  /**
   * Keys the pixel's hashes (HMAC-SHA256): each day's visitor hash key is derived from it and
   * the date, and a client address's rate window is named by its hash. Shared by every
   * process like CURSOR_SIGNING_KEY, or one visitor would count once per process; in Lambda
   * it comes from the secret PIXEL_HASH_KEY_ARN names.
   */
  PIXEL_HASH_KEY: z.optional(z.string().check(z.minLength(32, 'must be at least 32 characters'))),
  /** How long pixel events are kept (their TTL), in days; daily rollups are kept as long. */
  PIXEL_EVENT_RETENTION_DAYS: z.pipe(
    z._default(
      z.string().check(
        z.regex(/^\d{1,3}$/, 'must be a whole number of days from 1 to 999'),
        z.refine((v) => Number(v) >= 1, 'must be at least 1'),
      ),
      '90',
    ),
    z.transform(Number),
  ),
});

const schema = z.extend(z.extend(storeSettings, gatewaySettings.shape), serviceSettings.shape);

export type Config = z.infer<typeof schema>;

/** The environment variables the configuration reads: what the stack may set (lib/constructs/function-environment.ts). */
export type ConfigVariable = keyof z.input<typeof schema>;

/** The settings that switch something on or off, by name. */
export type ConfigFlag = { [K in keyof Config]: Config[K] extends boolean ? K : never }[keyof Config];

/** Parses settings, or throws one error naming every bad variable in the house style. */
export function parseSettings<S extends z.ZodMiniType>(settings: S, env: NodeJS.ProcessEnv): z.output<S> {
  const parsed = settings.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export const parseConfig = (env: NodeJS.ProcessEnv): Config => parseSettings(schema, env);

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

const drawnKeys = new Map<string, Buffer>();

/**
 * A key every process serving the API must share (CURSOR_SIGNING_KEY, PIXEL_HASH_KEY). In
 * Lambda it must be configured (read from Secrets Manager at init, core/adapters/secrets/),
 * or each container would refuse another's cursors: a function that uses one without
 * declaring it fails here. Elsewhere, unset, one is drawn per process, enough for the local runner.
 */
export function sharedKey(name: 'CURSOR_SIGNING_KEY' | 'PIXEL_HASH_KEY'): string | Buffer {
  const { [name]: configured, AWS_LAMBDA_FUNCTION_NAME } = config();
  if (configured) return configured;
  if (AWS_LAMBDA_FUNCTION_NAME) throw new Error(`${name} is not set: the function's definition must declare its key in \`secrets\`.`);
  let drawn = drawnKeys.get(name);
  if (!drawn) drawnKeys.set(name, (drawn = randomBytes(32)));
  return drawn;
}
