import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { z } from 'zod';
import { defaultGatewayKeyBudget, isoInstant, mailFrom, publicBaseUrl, upgradeUrl } from '#core/platform/config';
import { defaultWebhookDisableAfter, defaultWebhookTimeoutMs } from '#core/platform/webhook-settings';
import { ApiStack } from '#lib/api-stack';

/** A switch: `-c name=false` arrives as a string. */
const switchContext = (fallback: boolean) => z.union([z.boolean(), z.stringbool()]).default(fallback);
const isoDateContext = z
  .string()
  .refine((value) => isoInstant.safeParse(value).success, 'must be an ISO 8601 date like 2027-01-31')
  .optional();

/** The retentions CloudWatch Logs accepts, in days (RetentionDays.INFINITE, 9999, is not one: never expiring is no retention). */
const logRetentions: number[] = Object.values(RetentionDays).filter((days) => typeof days === 'number' && days !== RetentionDays.INFINITE);

const contextSchema = z.object({
  stackName: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be a CloudFormation stack name')
    .default('TenantApi'),
  prefix: z
    .string()
    .regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, 'must look like api/v1, without slashes at the ends')
    .default('api/v1'),
  stageName: z.string().regex(/^\w+$/, 'must be letters, digits or underscores').default('prod'),
  /** `documentation.enabled`: the pages at /api/docs, openapi.json/.yaml and llms.txt. */
  documentationEnabled: switchContext(true),
  /** `oauth.enabled`. */
  oauthEnabled: switchContext(false),
  /** CORS_ALLOWED_ORIGINS of the functions (functions/core/platform/config.ts): comma-separated origins, or `*`. */
  corsAllowedOrigins: z.string().default(''),
  /** MAIL_FROM of the functions that send mail: an address or `Name <address>` of an SES-verified identity. cdk.json holds a placeholder. */
  mailFrom: z.string().refine((value) => mailFrom.safeParse(value).success, 'must be an address or Name <address>'),
  /** PUBLIC_BASE_URL of the functions that send mail, e.g. https://api.example.com; unset, the API's own URL. */
  publicBaseUrl: z
    .string()
    .refine((value) => publicBaseUrl.safeParse(value).success, 'must be a URL without a trailing slash')
    .optional(),
  /** UPGRADE_URL of every function: where a refusal at a plan's limit sends the client; unset, a placeholder. */
  upgradeUrl: z
    .string()
    .refine((value) => upgradeUrl.safeParse(value).success, 'must be a URL')
    .optional(),
  /** API_DEPRECATED_AT: the version the prefix serves is deprecated from this ISO 8601 date (a Deprecation header on its answers). */
  deprecatedAt: isoDateContext,
  /** API_SUNSET_AT: ...and goes away at this ISO 8601 date (a Sunset header). */
  sunsetAt: isoDateContext,
  /** API_DEPRECATION_LINK: the notice's URL (a Link header, rel="deprecation" and rel="sunset"). */
  deprecationLink: z.url().optional(),
  /** MAINTENANCE_MODE: every function answers 503 MAINTENANCE_MODE but for the platform admin routes (the CLI's switch needs no deploy). */
  maintenanceMode: switchContext(false),
  /** GATEWAY_KEY_BUDGET: how many workspaces get an API Gateway key of their own (the region holds 10,000 for every stack). */
  gatewayKeyBudget: z.coerce.number().int().min(0).max(10_000).default(defaultGatewayKeyBudget),
  /** WEBHOOK_TIMEOUT_MS: each delivery attempt's timeout; the worker's Lambda timeout, half a minute more, must stay within 15 minutes. */
  webhookTimeoutMs: z.coerce.number().int().min(100).max(870_000).default(defaultWebhookTimeoutMs),
  /** WEBHOOK_DISABLE_AFTER: deliveries in a row ending `failed` that disable an endpoint. */
  webhookDisableAfter: z.coerce.number().int().min(1).max(1_000_000).default(defaultWebhookDisableAfter),
  /**
   * The names of the keys that seal webhook secrets (WEBHOOK_SECRET_KEYS), comma-separated, the
   * sealing one first: each name is a key Secrets Manager generates. Naming a new key first rotates.
   */
  webhookSecretKeys: z
    .string()
    .regex(/^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$/, 'must be comma-separated key names of letters and digits')
    .default('1')
    .transform((names) => [...new Set(names.split(','))]),
  /** The regional WAF WebACL the stack makes in front of the stage (lib/constructs/web-acl.ts); `false`: none, unless webAclArn names one. */
  webAcl: switchContext(true),
  /** An existing regional WebACL to put in front of the stage instead of the stack's own. */
  webAclArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:wafv2:[a-z0-9-]+:\d{12}:regional\/webacl\/.+$/, 'must be the ARN of a regional WAFv2 WebACL')
    .optional(),
  /** The stack's WebACL: requests from one address in 5 minutes before WAF refuses it (100,000: a tier of 20,000 a minute from one address). */
  wafRateLimit: z.coerce.number().int().min(10).max(2_000_000_000).default(100_000),
  /** Concurrency reserved for the authorizer: taken from the account's unreserved pool, which must keep 100. */
  authorizerReservedConcurrency: z.coerce.number().int().min(1).max(10_000).default(200),
  /** A custom domain for the API (with certificateArn, an ACM certificate in the stack's region); the execute-api endpoint is then disabled. */
  domainName: z
    .string()
    .regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/, 'must be a host name like api.example.com')
    .optional(),
  certificateArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/.+$/, 'must be the ARN of an ACM certificate')
    .optional(),
  /** Subscribed by e-mail to the topic every alarm notifies (AWS mails a confirmation link first); unset, subscribe by hand. */
  alarmEmail: z.email().optional(),
  /** The account's Lambda concurrency quota in the region (Service Quotas, "Concurrent executions"): its alarm fires at 80%. */
  accountConcurrencyLimit: z.coerce.number().int().min(10).default(1000),
  /** Days the logs are kept: API Gateway's access and execution logs, and the functions' (one of the retentions CloudWatch Logs offers). */
  logRetentionDays: z.coerce
    .number()
    .refine((days) => logRetentions.includes(days), `must be one of ${logRetentions.join(', ')}`)
    .default(RetentionDays.THREE_MONTHS),
  /** The webhook worker's most concurrent invocations (its queue source's maximum concurrency; SQS event sources allow 2 to 1,000): each attempt may wait 30 s on a tenant's URL. */
  webhookWorkerMaxConcurrency: z.coerce.number().int().min(2).max(1_000).default(10),
  /** The customer-managed KMS key of the table, secrets, queues and log groups: `false` (AWS's own keys), `true` (the stack makes one, rotated yearly, retained) or an existing key's ARN. */
  kmsKey: z
    .union([
      z.boolean(),
      z.stringbool(),
      z.string().regex(/^arn:aws[\w-]*:kms:[\w-]+:\d{12}:key\/[\w-]+$/, 'must be true, false or a KMS key ARN'),
    ])
    .default(false),
  /** The table's on-demand maximum read request units a second, for the table and each index alike; unset, no cap. */
  tableMaxReadRequestUnits: z.coerce.number().int().min(1).optional(),
  /** The table's on-demand maximum write request units a second, for the table and each index alike; unset, no cap. */
  tableMaxWriteRequestUnits: z.coerce.number().int().min(1).optional(),
});

export type AppContext = z.input<typeof contextSchema>;

function settingsOf(app: App) {
  const given = Object.fromEntries(Object.keys(contextSchema.shape).map((key) => [key, app.node.tryGetContext(key)]));
  const parsed = contextSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid CDK context: ${problems.join('; ')}`);
  }
  const { domainName, certificateArn, ...settings } = parsed.data;
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new Error('Invalid CDK context: domainName and certificateArn go together');
  }
  return { ...settings, customDomain: domainName && certificateArn ? { domainName, certificateArn } : undefined };
}

// Read here as well as by the CLI, so that a test synthesizes what `cdk synth` does,
// feature flags included. Context from the CLI still takes precedence.
const cdkJsonContext = (): Record<string, unknown> => JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context;

/** The CDK app with its one stack, checked by cdk-nag's AWS Solutions rules on synthesis. */
export function createApp(context: Partial<AppContext> & Record<string, unknown> = {}) {
  const app = new App({ context: { ...cdkJsonContext(), ...context } });
  const { stackName, ...settings } = settingsOf(app);
  // No env: the stack is account- and region-agnostic, so synthesis needs no credentials.
  const stack = new ApiStack(app, stackName, settings);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) createApp().app.synth();
