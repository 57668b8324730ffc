import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDeps, type DepsOverrides } from '#core/adapters/create-deps';
import { createEmlMailer } from '#core/adapters/mailer/eml-mailer';
import { type BootstrapResult, bootstrapAdmin } from '#core/operations/bootstrap';
import { reconcileGatewayKeys } from '#core/operations/gateway-key-reconciliation';
import { pruneExpired } from '#core/operations/pruning';
import { config } from '#core/platform/config';
import { telemetry } from '#core/platform/telemetry';
import { webhookConfig } from '#core/platform/webhook-settings';
import type { GatewayKeys } from '#core/ports/gateway-keys';
import type { Mailer } from '#core/ports/mailer';
import type { WebhookSecretBox } from '#core/ports/webhook-secrets';
import { webhookSecretBox } from '#core/webhooks/secret-box';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.ts';
import { localFunctions } from './functions.ts';
import { createGateway, type GatewayHandler, gatewayHandler } from './gateway.ts';
import type { LocalConfig } from './local-config.ts';
import { printRequestLines } from './request-line.ts';
import { localSecretKeys } from './secret-keys.ts';
import { ensureTable } from './table-setup.ts';
import { localDelivery } from './webhooks/local-delivery.ts';

export interface LocalRunner {
  /** Where the gateway listens, e.g. http://127.0.0.1:3000 */
  origin: string;
  /** The API's base URL: origin plus the prefix. */
  baseUrl: string;
  /** What was created on an empty store; undefined when the store already had users. */
  bootstrap?: BootstrapResult;
  dynamoDbEndpoint: string;
  tableName: string;
  /** The folder every outgoing message is written to, as an `.eml` file. */
  mailDir: string;
  /** The mailer the users and sessions functions send with (the `.eml` folder unless overridden). */
  mailer: Mailer;
  /** The workspaces' API Gateway keys: the in-memory stand-in unless overridden (core/adapters/gateway-keys/). */
  gatewayKeys: GatewayKeys;
  /** Seals and opens webhook secrets with the runner's keys: for another process's deps on the same table (the bench, the tests). */
  webhookSecrets: WebhookSecretBox;
  /** Requests per API Gateway key, as a usage plan would meter them: the authorizer's `usageIdentifierKey`s. */
  metered: ReadonlyMap<string, number>;
  /** The gateway without its socket: a request handled in-process as the server would handle it. */
  handle: GatewayHandler;
  stop(): Promise<void>;
}

/** Where the mail goes, and whether the runner made the folder up (and so removes it at stop). */
function mailFolder(cfg: LocalConfig): { dir: string; temporary: boolean } {
  if (cfg.MAIL_DIR) return { dir: resolve(cfg.MAIL_DIR), temporary: false };
  // DATA_DIR=memory keeps nothing after a stop; its mail goes with it.
  if (cfg.DATA_DIR === 'memory') return { dir: mkdtempSync(join(tmpdir(), 'tenant-api-mail-')), temporary: true };
  return { dir: resolve(cfg.DATA_DIR, 'mail'), temporary: false };
}

/** The line printed for each message, whatever LOG_REQUESTS says: how a local user finds the links mailed to them. */
const mailLine = (mail: { to: string; subject: string; file: string }) => `mail to ${mail.to}: "${mail.subject}" ${mail.file}`;

/**
 * Starts the store, the table, the bootstrap data, mail and the gateway; `progress` names each
 * step as it begins, so that a slow start says what it waits for.
 */
export async function startLocalRunner(
  cfg: LocalConfig,
  overrides: DepsOverrides = {},
  print: (line: string) => void = (line) => console.log(line),
  progress: (step: string) => void = () => {},
): Promise<LocalRunner> {
  // Before anything starts: a bad key file stops the runner here, with nothing to clean up.
  const webhookSecrets = webhookSecretBox(webhookConfig().WEBHOOK_SECRET_KEYS ?? localSecretKeys(cfg.DATA_DIR));
  const mail = mailFolder(cfg);
  mkdirSync(mail.dir, { recursive: true });
  const removeMail = () => mail.temporary && rmSync(mail.dir, { recursive: true, force: true });
  let store: DynamoDbLocal | undefined;
  if (!cfg.DYNAMODB_ENDPOINT) {
    progress(`starting DynamoDB Local (Java; ${cfg.DATA_DIR === 'memory' ? 'in memory' : `data in ${cfg.DATA_DIR}`})…`);
    store = await startDynamoDbLocal(cfg.DATA_DIR, cfg.DYNAMODB_PORT);
  }
  const endpoint = cfg.DYNAMODB_ENDPOINT ?? store!.endpoint;
  const { mailer: givenMailer, ...ports } = overrides;
  // Read now, so that a bad WEBHOOK_* value stops the runner at start rather than at the first delivery.
  const delivery = localDelivery(webhookConfig().WEBHOOK_RETRY_SCALE);
  const deps = createDeps({ ...cfg, DYNAMODB_ENDPOINT: endpoint }, { ...delivery.ports, webhookSecrets, ...ports });
  const mailer = givenMailer ?? createEmlMailer({ dir: mail.dir, from: cfg.MAIL_FROM, written: (written) => print(mailLine(written)) });
  let origin = '';
  try {
    progress(`preparing the table ${deps.tableName} (created when missing)…`);
    await ensureTable(deps.client, deps.tableName);
    progress('seeding an empty store (an admin, a workspace and a key; nothing when it has users)…');
    const bootstrap = await bootstrapAdmin(deps, {
      apiKey: cfg.BOOTSTRAP_API_KEY,
      email: cfg.BOOTSTRAP_EMAIL,
      password: cfg.BOOTSTRAP_PASSWORD,
    });
    progress('starting webhook delivery and the gateway…');
    await delivery.start(deps);
    // The prefix the route functions serve (http-handler.ts reads the same config()).
    const prefix = config().API_PREFIX;
    const functions = localFunctions(deps, { mailer, publicBaseUrl: () => cfg.PUBLIC_BASE_URL ?? origin });
    const metered = new Map<string, number>();
    const handle = gatewayHandler(functions, prefix, (key) => metered.set(key, (metered.get(key) ?? 0) + 1));
    const server = createGateway(handle);
    if (cfg.LOG_REQUESTS) printRequestLines(server, print);
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(cfg.PORT, cfg.HOST, () => done());
    });
    const pruning = startJob({ done: 'pruned', failed: 'pruning failed' }, () => pruneExpired(deps), cfg.PRUNE_INTERVAL_SECONDS * 1000);
    const reconciliation = startJob(
      { done: 'gateway keys reconciled', failed: 'gateway key reconciliation failed' },
      () => reconcileGatewayKeys(deps),
      cfg.RECONCILE_INTERVAL_SECONDS * 1000,
    );
    const { port } = server.address() as AddressInfo;
    origin = `http://${cfg.HOST.includes(':') ? `[${cfg.HOST}]` : cfg.HOST}:${port}`;
    return {
      origin,
      baseUrl: origin + prefix,
      bootstrap,
      dynamoDbEndpoint: endpoint,
      tableName: deps.tableName,
      mailDir: mail.dir,
      mailer,
      gatewayKeys: deps.gatewayKeys,
      webhookSecrets,
      metered,
      handle,
      stop: async () => {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        await pruning.stop();
        await reconciliation.stop();
        await delivery.stop();
        deps.close();
        await store?.stop();
        removeMail();
      },
    };
  } catch (error) {
    await delivery.stop();
    deps.close();
    await store?.stop();
    removeMail();
    throw error;
  }
}

/**
 * A job as its hourly schedule runs it in AWS (the pruning job, the gateway key
 * reconciliation): once at start, then every `intervalMs`, never two runs at once. It logs
 * `done` (at INFO) only when a run changed something, and `failed` (at ERROR) with the error.
 */
function startJob({ done, failed }: { done: string; failed: string }, job: () => Promise<object>, intervalMs: number) {
  let running: Promise<void> | undefined;
  const run = () => {
    const { logger } = telemetry();
    running ??= job()
      .then(
        (counts) => {
          if (Object.values(counts).some((n) => typeof n === 'number' && n > 0)) logger.info(done, { ...counts });
        },
        (error: Error) => logger.error(failed, error),
      )
      .finally(() => (running = undefined));
  };
  const timer = setInterval(run, intervalMs);
  run();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
