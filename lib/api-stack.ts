import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { FunctionName } from '#lib/bundling';
import { type LambdaFunctionName, lambdaFunctions } from '#routes';
import { Api, stageThrottle } from './constructs/api.ts';
import { ApiFunction, type ApiFunctionProps } from './constructs/api-function.ts';
import { ApiGatewayResponses } from './constructs/api-gateway-responses.ts';
import { CursorSigningKey } from './constructs/cursor-signing-key.ts';
import { DataTable } from './constructs/data-table.ts';
import { Mail } from './constructs/mail.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { ScheduledJob } from './constructs/scheduled-job.ts';
import { TierUsagePlans } from './constructs/tier-usage-plans.ts';
import { WebhookSecretKeys } from './constructs/webhook-secret-keys.ts';
import { Webhooks, workerTimeoutOf } from './constructs/webhooks.ts';

export interface ApiStackProps extends StackProps {
  /** The path prefix of every route, without slashes at the ends: `api/v1`. */
  prefix: string;
  stageName: string;
  /** Serves OAuth 2.0 (functions/core/platform/config.ts, OAUTH_ENABLED). */
  oauthEnabled: boolean;
  /** Origins allowed to call the API from browsers (functions/core/platform/config.ts, CORS_ALLOWED_ORIGINS). */
  corsAllowedOrigins: string;
  /** The sender of mail (functions/core/platform/config.ts, MAIL_FROM): an SES-verified address or `Name <address>`. */
  mailFrom: string;
  /** The base of links in mail (PUBLIC_BASE_URL), e.g. a custom domain; unset, the API's own URL. */
  publicBaseUrl?: string;
  /** Where a refusal at a plan's limit sends the client (UPGRADE_URL); unset, the functions' placeholder. */
  upgradeUrl?: string;
  /** How many workspaces get an API Gateway key of their own (GATEWAY_KEY_BUDGET); the rest share their tier's. */
  gatewayKeyBudget: number;
  /** Each webhook delivery attempt's timeout (WEBHOOK_TIMEOUT_MS); the worker's Lambda timeout follows it. */
  webhookTimeoutMs: number;
  /** Deliveries in a row ending `failed` that disable a webhook endpoint (WEBHOOK_DISABLE_AFTER). */
  webhookDisableAfter: number;
  /** The names of the keys that seal webhook secrets, the sealing one first (WEBHOOK_SECRET_KEYS). */
  webhookSecretKeys: readonly string[];
}

/** Route functions that put a webhook delivery on the queue themselves: a manual retry. */
const webhookEnqueuers: readonly LambdaFunctionName[] = ['webhook-deliveries'];

/** Route functions that seal or open webhook secrets: creation and rotation (webhooks), test sends (webhook-deliveries). */
const webhookSecretHolders: readonly LambdaFunctionName[] = ['webhooks', 'webhook-deliveries'];

/** Route functions that need more than the default: a test send waits up to 20 s for the receiver, within API Gateway's 29 s. */
const routeFunctionOptions: Partial<Record<LambdaFunctionName, Pick<ApiFunctionProps, 'timeout'>>> = {
  'webhook-deliveries': { timeout: Duration.seconds(29) },
};

/** The whole service: the table, the functions and what each may touch, the API in front. */
export class ApiStack extends Stack {
  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { table } = new DataTable(this, 'Data');
    const cursorSigningKey = new CursorSigningKey(this, 'CursorSigningKey');

    const fn = (name: FunctionName, options: Pick<ApiFunctionProps, 'memorySize' | 'timeout'> = {}) =>
      new ApiFunction(this, constructIdOf(name), {
        name,
        apiPrefix: `/${props.prefix}`,
        environment: {
          OAUTH_ENABLED: props.oauthEnabled ? '1' : '0',
          CORS_ALLOWED_ORIGINS: props.corsAllowedOrigins,
          CURSOR_SIGNING_KEY: cursorSigningKey.value,
          ...(props.upgradeUrl ? { UPGRADE_URL: props.upgradeUrl } : {}),
        },
        ...options,
      });
    const routeFunctions = recordOf(
      lambdaFunctions,
      (name) => fn(name, routeFunctionOptions[name]).bindTable(table, 'read-write').function,
    );
    // bcrypt is CPU-bound: a full vCPU keeps a key's first verification in a process short.
    const authorizerFunction = fn('authorizer', { memorySize: 1769 }).bindTable(table, 'read-write').function;
    const fallbackFunction = fn('fallback').function;
    // Deletes in pages and stops before its timeout; a backlog is worked off over several runs.
    const prunerFunction = fn('pruner', { memorySize: 512, timeout: Duration.minutes(5) }).bindTable(table, 'read-write').function;
    // Hourly; DynamoDB's own TTL stays as a backstop in between.
    new ScheduledJob(this, 'Pruning', {
      job: prunerFunction,
      every: Duration.hours(1),
      description: 'Deletes expired API keys, user tokens, sessions and throttle windows',
    });
    // A function of its own, so that the pruner's role stays on the table: this one deletes, moves and makes API Gateway keys.
    const reconcilerFunction = fn('gateway-key-reconciler', { timeout: Duration.minutes(5) }).bindTable(table, 'read-write').function;
    const webhookFunctions = {
      // Up to 100 events a batch, each fanned out to every subscribed endpoint.
      'webhook-fanout': fn('webhook-fanout', { timeout: Duration.minutes(1) }).bindTable(table, 'read-write').function,
      'webhook-worker': fn('webhook-worker', { timeout: workerTimeoutOf(props.webhookTimeoutMs) }).bindTable(table, 'read-write').function,
      // Runs every minute; what it leaves undone, the next run finds.
      'webhook-sweeper': fn('webhook-sweeper', { timeout: Duration.minutes(1) }).bindTable(table, 'read-write').function,
    };
    const webhooks = new Webhooks(this, 'WebhookDelivery', {
      table,
      fanout: webhookFunctions['webhook-fanout'],
      worker: webhookFunctions['webhook-worker'],
      sweeper: webhookFunctions['webhook-sweeper'],
      enqueuers: webhookEnqueuers.map((name) => routeFunctions[name]),
      attemptTimeoutMs: props.webhookTimeoutMs,
      disableAfter: props.webhookDisableAfter,
    });
    // The keys of webhook secrets go to the functions that seal or open them: the worker signs every delivery.
    const webhookSecretKeys = new WebhookSecretKeys(this, 'WebhookSecretKeys', { names: props.webhookSecretKeys });
    for (const holder of [...webhookSecretHolders.map((name) => routeFunctions[name]), webhookFunctions['webhook-worker']])
      webhookSecretKeys.provideTo(holder);
    // Only the account flows mail: registration, verification, invitations (users), password reset (sessions).
    new Mail(this, 'Mail', {
      sender: props.mailFrom,
      publicBaseUrl: props.publicBaseUrl,
      senders: [routeFunctions.users, routeFunctions.sessions],
    });

    const api = new Api(this, 'Api', {
      prefix: props.prefix,
      stageName: props.stageName,
      routeFunctions,
      authorizerFunction,
      fallbackFunction,
    });
    new ApiGatewayResponses(this, 'GatewayResponses', { api: api.restApi, corsAllowedOrigins: props.corsAllowedOrigins });
    const usagePlans = new TierUsagePlans(this, 'UsagePlans', { api: api.restApi, stageThrottle });
    // Workspaces are created (workspaces; registration in sessions), re-tiered (admin) and deleted (workspaces).
    const keyManagerEnvironment = { ...usagePlans.keyManagerEnvironment, GATEWAY_KEY_BUDGET: String(props.gatewayKeyBudget) };
    for (const keyManager of [routeFunctions.workspaces, routeFunctions.sessions, routeFunctions.admin]) {
      usagePlans.grantKeyManagement(keyManager.role!);
      addEnvironment(keyManager, keyManagerEnvironment);
    }
    // What those leave behind when a call fails half-way, and the sharers to move back when the budget frees: hourly.
    usagePlans.grantKeyReconciliation(reconcilerFunction.role!);
    addEnvironment(reconcilerFunction, keyManagerEnvironment);
    new ScheduledJob(this, 'GatewayKeyReconciliation', {
      job: reconcilerFunction,
      every: Duration.hours(1),
      description:
        "Deletes API Gateway keys left behind by failed calls, and gives workspaces sharing their tier's key their own while the budget has room",
    });
    addEnvironment(authorizerFunction, usagePlans.authorizerEnvironment);
    new Monitoring(this, 'Monitoring', {
      api: api.restApi,
      table,
      functions: {
        ...routeFunctions,
        authorizer: authorizerFunction,
        fallback: fallbackFunction,
        pruner: prunerFunction,
        'gateway-key-reconciler': reconcilerFunction,
        ...webhookFunctions,
      },
      deadLetterQueues: { WebhookDeadLetters: webhooks.deadLetterQueue, WebhookFanoutFailures: webhooks.fanoutFailures },
    });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the API, prefix included' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'The single DynamoDB table' });
    // For the admin CLI's --stack, which changes tiers as the admin function does.
    new CfnOutput(this, 'GatewayUsagePlans', {
      value: usagePlans.keyManagerEnvironment.GATEWAY_USAGE_PLANS!,
      description: "Each tier's usage plan, by name",
    });
    new CfnOutput(this, 'GatewayKeyBudget', {
      value: String(props.gatewayKeyBudget),
      description: 'How many workspaces get an API Gateway key of their own',
    });
  }
}

const addEnvironment = (fn: LambdaFunction, variables: Record<string, string>) => {
  for (const [name, value] of Object.entries(variables)) fn.addEnvironment(name, value);
};

const constructIdOf = (name: FunctionName) => name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());

const recordOf = <K extends string, V>(keys: readonly K[], make: (key: K) => V) =>
  Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
