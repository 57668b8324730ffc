import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { z } from 'zod';
import { defaultGatewayKeyBudget, isoInstant, mailFrom, publicBaseUrl, upgradeUrl } from '#core/platform/config';
import { defaultWebhookDisableAfter, defaultWebhookTimeoutMs } from '#core/platform/webhook-settings';
import type { CustomDomainProps } from '#lib/constructs/custom-domain';

/**
 * Every CDK context key the app reads, with its type, default and meaning, in one list:
 * bin/app.ts parses the context with it, and `npm run docs` writes it into docs/operations.md.
 */

/** Where a key belongs, in the order the guide lists them. */
export const configAreas = [
  'stage',
  'domain',
  'features',
  'tiers',
  'mail',
  'versioning',
  'webhooks',
  'edge',
  'alarms',
  'logs',
  'data',
] as const;
type ConfigArea = (typeof configAreas)[number];

interface Setting<S extends z.ZodType> {
  area: ConfigArea;
  /** What it sets, for the operator's guide. */
  meaning: string;
  schema: S;
}
const setting = <S extends z.ZodType>(area: ConfigArea, meaning: string, schema: S): Setting<S> => ({ area, meaning, schema });

/** A switch: `-c name=false` arrives as a string. */
const switchContext = (fallback: boolean) => z.union([z.boolean(), z.stringbool()], { error: 'must be true or false' }).default(fallback);
const isoDate = z
  .string()
  .refine((value) => isoInstant.safeParse(value).success, 'must be an ISO 8601 date like 2027-01-31')
  .optional();
const count = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** The retentions CloudWatch Logs accepts, in days (RetentionDays.INFINITE, 9999, is not one: never expiring is no retention). */
const logRetentions: number[] = Object.values(RetentionDays).filter((days) => typeof days === 'number' && days !== RetentionDays.INFINITE);

export const deploySettings = {
  stackName: setting(
    'stage',
    "The CloudFormation stack's name; also names its usage plans, shared keys and schedule group.",
    z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be a CloudFormation stack name')
      .default('TenantApi'),
  ),
  prefix: setting(
    'stage',
    'The path prefix of every versioned route (API_PREFIX), without slashes at the ends.',
    z
      .string()
      .regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, 'must look like api/v1, without slashes at the ends')
      .default('api/v1'),
  ),
  stageName: setting(
    'stage',
    'The API Gateway stage.',
    z.string().regex(/^\w+$/, 'must be letters, digits or underscores').default('prod'),
  ),
  domainName: setting(
    'domain',
    'A custom domain for the API, with `certificateArn` (both or neither): served there with TLS 1.2 or later, and the execute-api endpoint disabled. Point DNS at the `DnsTarget` output.',
    z
      .string()
      .regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/, 'must be a host name like api.example.com')
      .optional(),
  ),
  certificateArn: setting(
    'domain',
    "The ACM certificate of `domainName`, in the stack's region.",
    z
      .string()
      .regex(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/.+$/, 'must be the ARN of an ACM certificate')
      .optional(),
  ),
  documentationEnabled: setting(
    'features',
    'The pages at `/api/docs`, `openapi.json`/`.yaml` and `llms.txt` (DOCUMENTATION_ENABLED); off, none of it is deployed.',
    switchContext(true),
  ),
  oauthEnabled: setting('features', 'OAuth 2.0: `/oauth/*` and OAuth access tokens (OAUTH_ENABLED).', switchContext(false)),
  corsAllowedOrigins: setting(
    'features',
    'Origins whose browser scripts may call the API, comma-separated, or `*` (CORS_ALLOWED_ORIGINS).',
    z.string().default(''),
  ),
  maintenanceMode: setting(
    'features',
    'Every function answers 503 `MAINTENANCE_MODE` but the platform admin routes (MAINTENANCE_MODE); the admin CLI switches it without a deploy.',
    switchContext(false),
  ),
  gatewayKeyBudget: setting(
    'tiers',
    "Workspaces that get an API Gateway key of their own in their tier's usage plan; the rest share their tier's key (GATEWAY_KEY_BUDGET; the region holds 10,000 keys for every stack).",
    count(0, 10_000).default(defaultGatewayKeyBudget),
  ),
  upgradeUrl: setting(
    'tiers',
    "The `upgrade_url` of refusals at a plan's limit (UPGRADE_URL); unset, a placeholder.",
    z
      .string()
      .refine((value) => upgradeUrl.safeParse(value).success, 'must be a URL')
      .optional(),
  ),
  mailFrom: setting(
    'mail',
    'The sender of mail (MAIL_FROM): an address or `Name <address>` of an identity verified in SES.',
    z.string().refine((value) => mailFrom.safeParse(value).success, 'must be an address or Name <address>'),
  ),
  publicBaseUrl: setting(
    'mail',
    "The base of links in mail (PUBLIC_BASE_URL), e.g. `https://www.example.com`; unset, the custom domain's (`https://<domainName>`), else the API's own URL.",
    z
      .string()
      .refine((value) => publicBaseUrl.safeParse(value).success, 'must be a URL without a trailing slash')
      .optional(),
  ),
  deprecatedAt: setting(
    'versioning',
    'The version the prefix serves is deprecated from this ISO 8601 date: a `Deprecation` header on its answers (API_DEPRECATED_AT).',
    isoDate,
  ),
  sunsetAt: setting('versioning', '...and goes away at this ISO 8601 date: a `Sunset` header (API_SUNSET_AT).', isoDate),
  deprecationLink: setting(
    'versioning',
    'The notice\'s URL: a `Link` header, `rel="deprecation"` and `rel="sunset"` (API_DEPRECATION_LINK).',
    z.url().optional(),
  ),
  webhookTimeoutMs: setting(
    'webhooks',
    "Each delivery attempt's timeout (WEBHOOK_TIMEOUT_MS); the worker's Lambda timeout, half a minute more, stays within 15 minutes.",
    count(100, 870_000).default(defaultWebhookTimeoutMs),
  ),
  webhookDisableAfter: setting(
    'webhooks',
    'Deliveries in a row ending `failed` that disable an endpoint (WEBHOOK_DISABLE_AFTER).',
    count(1, 1_000_000).default(defaultWebhookDisableAfter),
  ),
  webhookSecretKeys: setting(
    'webhooks',
    'The names of the keys that seal webhook secrets, comma-separated, the sealing one first: each a secret the stack generates. Naming a new key first rotates.',
    z
      .string()
      .regex(/^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$/, 'must be comma-separated key names of letters and digits')
      .default('1')
      .transform((names) => [...new Set(names.split(','))]),
  ),
  webhookWorkerMaxConcurrency: setting(
    'webhooks',
    "The webhook worker's most concurrent invocations (its queue source's maximum concurrency, 2 to 1,000): each attempt may wait 30 s on a tenant's URL.",
    count(2, 1_000).default(10),
  ),
  webAcl: setting(
    'edge',
    'A regional WAF WebACL the stack makes in front of the stage (The edge); `false`: none, unless `webAclArn` names one.',
    switchContext(true),
  ),
  webAclArn: setting(
    'edge',
    "An existing regional WAFv2 WebACL to associate with the stage instead of the stack's own.",
    z
      .string()
      .regex(/^arn:aws[a-z-]*:wafv2:[a-z0-9-]+:\d{12}:regional\/webacl\/.+$/, 'must be the ARN of a regional WAFv2 WebACL')
      .optional(),
  ),
  wafRateLimit: setting(
    'edge',
    "The stack's WebACL: requests from one address in 5 minutes before WAF answers 429 (100,000 lets a tenant of the 20,000-a-minute tier call from one address).",
    count(10, 2_000_000_000).default(100_000),
  ),
  wafPublicRateLimit: setting(
    'edge',
    "The stack's WebACL: requests from one address in 5 minutes to the public routes (login, registration, password reset, OAuth, mailed links) before WAF answers 429; they share one throttle, which one address could otherwise spend.",
    count(10, 2_000_000_000).default(300),
  ),
  authorizerReservedConcurrency: setting(
    'edge',
    "Concurrency reserved for the authorizer, which no flood elsewhere can take; it comes out of the account's unreserved pool, which must keep 100.",
    count(1, 10_000).default(200),
  ),
  alarmEmail: setting(
    'alarms',
    'An address subscribed to the alarm topic (AWS mails it a confirmation link first: nothing arrives until it is clicked); unset, subscribe to `AlarmTopicArn` yourself.',
    z.email().optional(),
  ),
  accountConcurrencyLimit: setting(
    'alarms',
    "The account's Lambda concurrency quota in the region (Service Quotas, *Concurrent executions*): `AccountConcurrency` fires at 80% of it.",
    z.coerce.number().int().min(10).default(1000),
  ),
  logRetentionDays: setting(
    'logs',
    `Days the logs are kept: API Gateway's access and execution logs and every function's, one of ${logRetentions.join(', ')}.`,
    z.coerce
      .number()
      .refine((days) => logRetentions.includes(days), `must be one of ${logRetentions.join(', ')}`)
      .default(RetentionDays.THREE_MONTHS),
  ),
  kmsKey: setting(
    'data',
    "The customer-managed KMS key of the table, secrets, queues and log groups: `false` (AWS's own keys), `true` (the stack makes one, rotated yearly, retained) or an existing key's ARN.",
    z
      .union([z.boolean(), z.stringbool(), z.string().regex(/^arn:aws[\w-]*:kms:[\w-]+:\d{12}:key\/[\w-]+$/)], {
        error: 'must be true, false or a KMS key ARN',
      })
      .default(false),
  ),
  tableMaxReadRequestUnits: setting(
    'data',
    "The table's on-demand maximum read request units a second, for the table and each index alike; unset, no cap.",
    z.coerce.number().int().min(1).optional(),
  ),
  tableMaxWriteRequestUnits: setting(
    'data',
    "The table's on-demand maximum write request units a second, for the table and each index alike; unset, no cap.",
    z.coerce.number().int().min(1).optional(),
  ),
};

type DeploySettings = typeof deploySettings;
const contextSchema = z.object(
  Object.fromEntries(Object.entries(deploySettings).map(([key, { schema }]) => [key, schema])) as {
    [K in keyof DeploySettings]: DeploySettings[K]['schema'];
  },
);

/** The context as a test or `-c` may give it. */
export type DeployContext = z.input<typeof contextSchema>;

/** The configuration as the stack takes it: each key checked and defaulted, the domain and its certificate as one. */
export type DeployConfig = Omit<z.output<typeof contextSchema>, 'domainName' | 'certificateArn'> & { customDomain?: CustomDomainProps };

/** Wrong context, said in the operator's terms: the synthesis stops with this message alone. */
export class DeployConfigError extends Error {}

/**
 * Context keys that are not settings of ours: CDK's own (feature flags `@aws-cdk/…`, its
 * `aws:cdk:…` and lookups, all with a `:` or a `/`) aside, likely a misspelt setting,
 * which would otherwise be ignored without a word.
 */
export const unknownContextKeys = (context: Record<string, unknown>): string[] =>
  Object.keys(context).filter((key) => !(key in deploySettings) && !/[:/]/.test(key));

/** Reads the configuration from the CDK context, or throws naming every key that is wrong. */
export function deployConfigOf(context: (key: string) => unknown): DeployConfig {
  const parsed = contextSchema.safeParse(Object.fromEntries(Object.keys(deploySettings).map((key) => [key, context(key)])));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new DeployConfigError(`Invalid CDK context: ${problems.join('; ')}`);
  }
  const { domainName, certificateArn, ...config } = parsed.data;
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new DeployConfigError('Invalid CDK context: domainName and certificateArn go together');
  }
  return { ...config, customDomain: domainName && certificateArn ? { domainName, certificateArn } : undefined };
}
