import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { type FunctionDefinition, type PortName, secretsOf } from '#core/adapters/function-definition';
import { deprecationHeaders } from '#core/http/deprecation';
import { parseConfig } from '#core/platform/config';
import type { SecretName } from '#core/platform/secret-settings';
import { type FunctionName, mainStackFunctionNames } from '#lib/bundling';
import type { DeployConfig } from '#lib/deploy-config';
import { lambdaFunctions, routes } from '#routes';
import { functionDefinitions } from '../functions/definitions.ts';
import { docsResources } from '../functions/docs/routes.ts';
import { Api, stageThrottle } from './constructs/api.ts';
import { ApiFunction } from './constructs/api-function.ts';
import { ApiGatewayResponses } from './constructs/api-gateway-responses.ts';
import { DataTable } from './constructs/data-table.ts';
import { DocsRoutes } from './constructs/docs-routes.ts';
import { EncryptionKey } from './constructs/encryption-key.ts';
import { addEnvironment, type FunctionEnvironment } from './constructs/function-environment.ts';
import { GeneratedKey } from './constructs/generated-key.ts';
import { Mail } from './constructs/mail.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { ScheduledJob } from './constructs/scheduled-job.ts';
import { TierUsagePlans } from './constructs/tier-usage-plans.ts';
import type { UnmatchedSettings } from './constructs/unmatched-answers.ts';
import { acknowledgeNoWebAcl, associateWebAcl, WebAcl } from './constructs/web-acl.ts';
import { WebhookSecretKeys } from './constructs/webhook-secret-keys.ts';
import { Webhooks, workerTimeoutOf } from './constructs/webhooks.ts';

/** The stack's settings: the deployment's configuration (lib/deploy-config.ts, which documents each), less the stack's name. */
export type ApiStackProps = StackProps & Omit<DeployConfig, 'stackName'>;

/** The whole service: the table, the functions and what each may touch, the API in front. */
export class ApiStack extends Stack {
  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const encryption = new EncryptionKey(this, 'EncryptionKey', { setting: props.kmsKey });
    const encryptionKey = encryption.key;
    const { table } = new DataTable(this, 'Data', {
      encryptionKey,
      maxReadRequestUnits: props.tableMaxReadRequestUnits,
      maxWriteRequestUnits: props.tableMaxWriteRequestUnits,
    });

    // Checked against RetentionDays' values by the context schema (bin/app.ts).
    const logRetention = props.logRetentionDays as RetentionDays;
    // Every function as its folder defines it (functions/<name>/definition.ts), with the table unless it touches none.
    const environment: FunctionEnvironment = {
      OAUTH_ENABLED: props.oauthEnabled ? '1' : '0',
      CORS_ALLOWED_ORIGINS: props.corsAllowedOrigins,
      UPGRADE_URL: props.upgradeUrl,
      API_DEPRECATED_AT: props.deprecatedAt,
      API_SUNSET_AT: props.sunsetAt,
      API_DEPRECATION_LINK: props.deprecationLink,
      MAINTENANCE_MODE: props.maintenanceMode ? '1' : '0',
      // The functions' own metrics, in the stack's namespace: two stacks in one account and region keep theirs apart.
      METRICS_NAMESPACE: this.stackName,
    };
    // Reserved: the authorizer's share, which no flood elsewhere can take; the scheduled jobs one each, so a slow run never overlaps the next.
    const reservedConcurrency: Partial<Record<FunctionName, number>> = {
      authorizer: props.authorizerReservedConcurrency,
      pruner: 1,
      'webhook-sweeper': 1,
      'gateway-key-reconciler': 1,
    };
    const fn = (definition: FunctionDefinition & { name: FunctionName }) => {
      const made = new ApiFunction(this, constructIdOf(definition.name), {
        definition,
        apiPrefix: `/${props.prefix}`,
        environment,
        logRetention,
        encryptionKey,
        reservedConcurrency: reservedConcurrency[definition.name],
        ...(definition.name === 'webhook-worker' ? { timeout: workerTimeoutOf(props.webhookTimeoutMs) } : {}),
      });
      if (definition.table !== false) made.bindTable(table);
      encryption.acknowledgeTableGrants(made);
      return made.function;
    };
    const inThisStack = mainStackFunctionNames;
    const functions = recordOf(inThisStack, (name) => fn(functionDefinitions[name]));
    const routeFunctions = recordOf(lambdaFunctions, (name) => functions[name]);
    // The functions whose definitions declare the port: they alone get its grants and settings.
    const using = (port: PortName) =>
      inThisStack.filter((name) => (functionDefinitions[name].ports as readonly PortName[]).includes(port)).map((name) => functions[name]);

    new ScheduledJob(this, 'Pruning', {
      job: functions.pruner,
      every: Duration.hours(1),
      description: 'Deletes expired API keys, user tokens, sessions and throttle windows',
    });
    const webhooks = new Webhooks(this, 'WebhookDelivery', {
      table,
      fanout: functions['webhook-fanout'],
      worker: functions['webhook-worker'],
      sweeper: functions['webhook-sweeper'],
      enqueuers: using('deliveryQueue'),
      schedulers: using('retryScheduler'),
      attemptTimeoutMs: props.webhookTimeoutMs,
      disableAfter: props.webhookDisableAfter,
      workerMaxConcurrency: props.webhookWorkerMaxConcurrency,
      encryptionKey,
    });
    // Each function reads the keys its definition declares, by ARN at init: none is in any function's configuration.
    const keys = {
      cursorSigningKey: new GeneratedKey(this, 'CursorSigningKey', {
        name: 'cursorSigningKey',
        description: 'Signs list cursors (HMAC-SHA256); replacing it only invalidates cursors in flight',
        rotation:
          'A cursor lives as long as a client pages through a list; replacing the key by hand is the rotation (docs/operations.md, Secrets), and costs only cursors in flight.',
        encryptionKey,
      }),
      // Each day's visitor hash key derives from it and the date (functions/core/pixel/visitors.ts).
      pixelHashKey: new GeneratedKey(this, 'PixelHashKey', {
        name: 'pixelHashKey',
        description: "Keys the pixel's daily visitor hashes and its per-address rate windows (HMAC-SHA256)",
        rotation:
          "Only the pixel function may read the key, and each day's visitor key is derived from it and the date, so visitors are unlinkable across days without rotating it; replacing it by hand costs only that day's unique-visitor counts.",
        encryptionKey,
      }),
      webhookSecretKeys: new WebhookSecretKeys(this, 'WebhookSecretKeys', { names: props.webhookSecretKeys, encryptionKey }),
    } satisfies Record<SecretName, { provideTo(fn: (typeof functions)[keyof typeof functions]): void }>;
    for (const name of inThisStack) for (const key of secretsOf(functionDefinitions[name])) keys[key].provideTo(functions[name]);
    // Links in mail point at the custom domain when there is one, unless told otherwise.
    const publicBaseUrl = props.publicBaseUrl ?? (props.customDomain && `https://${props.customDomain.domainName}`);
    const mail = new Mail(this, 'Mail', { sender: props.mailFrom, publicBaseUrl, senders: using('mailer') });

    const api = new Api(this, 'Api', {
      prefix: props.prefix,
      stageName: props.stageName,
      routeFunctions,
      authorizerFunction: functions.authorizer,
      unmatched: unmatchedSettingsOf(props),
      documentationResources: props.documentationEnabled ? docsResources : [],
      logRetention: props.logRetentionDays,
      customDomain: props.customDomain,
      encryptionKey,
    });
    if (props.webAclArn) associateWebAcl(this, api.restApi.deploymentStage, props.webAclArn);
    else if (props.webAcl) {
      new WebAcl(this, 'Firewall', {
        stage: api.restApi.deploymentStage,
        stageName: props.stageName,
        prefix: `/${props.prefix}`,
        rateLimit: props.wafRateLimit,
        publicRateLimit: props.wafPublicRateLimit,
        routes,
      });
    } else acknowledgeNoWebAcl(api.restApi);
    new ApiGatewayResponses(this, 'GatewayResponses', { api: api.restApi, corsAllowedOrigins: props.corsAllowedOrigins });
    const documentation = props.documentationEnabled
      ? new DocsRoutes(this, 'Documentation', {
          restApi: api.restApi,
          apiResource: api.restApi.root.resourceForPath('api'),
          table,
          apiPrefix: `/${props.prefix}`,
          environment: { ...environment, DOCUMENTATION_ENABLED: '1' },
          logRetention,
          encryptionKey,
        })
      : undefined;
    if (documentation) {
      encryption.acknowledgeTableGrants(documentation);
      // The stage's deployment must come after the nested stack's methods, and again whenever they change.
      api.restApi.latestDeployment?.node.addDependency(documentation);
      api.restApi.latestDeployment?.addToLogicalId({ documentation: docsResources });
    }
    // The MCP functions run operations in the functions that serve them: invoke those, by the names they are told.
    for (const name of inThisStack) {
      const invoked = functionDefinitions[name].invokes ?? [];
      if (!invoked.length) continue;
      const targets = invoked.map((target) => [target, functions[target as (typeof inThisStack)[number]]] as const);
      // The functions themselves, not `:*` (every version and alias): the invoker calls each by its name alone.
      functions[name].addToRolePolicy(
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: targets.map(([, fn]) => fn.functionArn) }),
      );
      addEnvironment(functions[name], {
        ROUTE_FUNCTIONS: this.toJsonString(Object.fromEntries(targets.map(([target, fn]) => [target, fn.functionName]))),
      });
    }
    const usagePlans = new TierUsagePlans(this, 'UsagePlans', { api: api.restApi, stageThrottle });
    // Workspaces are created (workspaces; registration in sessions), re-tiered (admin) and deleted (workspaces);
    // the reconciler mends what those leave behind when a call fails half-way, and moves sharers back when the budget frees.
    const keyManagerEnvironment = { ...usagePlans.keyManagerEnvironment, GATEWAY_KEY_BUDGET: String(props.gatewayKeyBudget) };
    for (const keyManager of using('gatewayKeys')) {
      if (keyManager === functions['gateway-key-reconciler']) usagePlans.grantKeyReconciliation(keyManager.role!);
      else usagePlans.grantKeyManagement(keyManager.role!);
      addEnvironment(keyManager, keyManagerEnvironment);
    }
    new ScheduledJob(this, 'GatewayKeyReconciliation', {
      job: functions['gateway-key-reconciler'],
      every: Duration.hours(1),
      description:
        "Deletes API Gateway keys left behind by failed calls, and gives workspaces sharing their tier's key their own while the budget has room",
    });
    addEnvironment(functions.authorizer, usagePlans.authorizerEnvironment);
    const monitoring = new Monitoring(this, 'Monitoring', {
      api: api.restApi,
      table,
      functions: { ...functions, ...(documentation && { docs: documentation.function }) },
      deliveryQueue: webhooks.queue,
      deadLetterQueues: { WebhookDeadLetters: webhooks.deadLetterQueue, WebhookFanoutFailures: webhooks.fanoutFailures },
      mailConfigurationSet: mail.configurationSet.configurationSetName,
      alarmEmail: props.alarmEmail,
      accountConcurrencyLimit: props.accountConcurrencyLimit,
      stackName: this.stackName,
      longestMessageWait: webhooks.longestMessageWait,
    });

    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output('ApiUrl', api.url, 'Base URL of the API, prefix included');
    if (props.documentationEnabled) output('DocsUrl', api.urlForPath('/api/docs'), 'The documentation pages');
    if (api.domain) {
      output(
        'DnsTarget',
        api.domain.dnsTarget,
        `Where ${props.customDomain?.domainName} must point: a CNAME, or an alias record in DnsTargetZone`,
      );
      output('DnsTargetZone', api.domain.dnsTargetZone, "The target's hosted zone, for an alias record");
    }
    output('TableName', table.tableName, 'The single DynamoDB table');
    output(
      'BootstrapCommand',
      `AWS_REGION=${this.region} npm run admin -- bootstrap --stack ${this.stackName}`,
      'Creates the first admin, workspace and key on the empty table (docs/operations.md, The first admin)',
    );
    output('DeliveryQueueUrl', webhooks.queue.queueUrl, 'The webhook delivery queue');
    output('DeliveryDeadLetterQueueUrl', webhooks.deadLetterQueue.queueUrl, 'Delivery messages the worker failed on 5 times');
    output('DeliveryDeadLetterQueueArn', webhooks.deadLetterQueue.queueArn, 'For aws sqs start-message-move-task --source-arn');
    output('DeliveryQueueArn', webhooks.queue.queueArn, 'For aws sqs start-message-move-task --destination-arn');
    output('FanoutFailuresQueueUrl', webhooks.fanoutFailures.queueUrl, 'Stream batches the webhook fan-out failed on');
    output('AccessLogGroup', api.accessLogs.logGroupName, "The API's access log");
    output('AuthorizerLogGroup', functions.authorizer.logGroup.logGroupName, "The authorizer's log");
    output('CursorSigningKeyArn', keys.cursorSigningKey.secret.secretArn, 'The secret that signs list cursors');
    output('AlarmTopicArn', monitoring.topic.topicArn, 'Every alarm notifies it: subscribe to it');
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

/** What API Gateway's own 404, 405 and preflight answers repeat of the functions' configuration, parsed as they parse it. */
function unmatchedSettingsOf(props: ApiStackProps): UnmatchedSettings {
  const settings = parseConfig({
    API_PREFIX: `/${props.prefix}`,
    CORS_ALLOWED_ORIGINS: props.corsAllowedOrigins,
    API_DEPRECATED_AT: props.deprecatedAt,
    API_SUNSET_AT: props.sunsetAt,
    API_DEPRECATION_LINK: props.deprecationLink,
  });
  return {
    corsAllowedOrigins: settings.CORS_ALLOWED_ORIGINS,
    prefix: settings.API_PREFIX,
    deprecationHeaders: deprecationHeaders(settings),
  };
}

const constructIdOf = (name: FunctionName) => name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());

const recordOf = <K extends string, V>(keys: readonly K[], make: (key: K) => V) =>
  Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
