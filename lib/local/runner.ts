import type { AddressInfo } from 'node:net';
import { config } from '#core/config';
import { createDeps, type Deps, type DepsOverrides } from '#core/deps';
import { bootstrapAdmin, type BootstrapResult } from '#core/domain/bootstrap';
import { pruneExpired } from '#core/domain/pruning';
import { telemetry } from '#core/telemetry';
import { startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local.ts';
import { createGateway } from './gateway.ts';
import { localFunctions } from './functions.ts';
import { ensureTable } from './table-setup.ts';
import type { LocalConfig } from './local-config.ts';
import { printRequestLines } from './request-line.ts';

export interface LocalRunner {
  /** Where the gateway listens, e.g. http://127.0.0.1:3000 */
  origin: string;
  /** The API's base URL: origin plus the prefix. */
  baseUrl: string;
  /** What was created on an empty store; undefined when the store already had users. */
  bootstrap?: BootstrapResult;
  dynamoDbEndpoint: string;
  tableName: string;
  stop(): Promise<void>;
}

/** Starts the embedded store (unless an endpoint is given), the table, the bootstrap data and the gateway. */
export async function startLocalRunner(cfg: LocalConfig, overrides: DepsOverrides = {}): Promise<LocalRunner> {
  let store: DynamoDbLocal | undefined;
  if (!cfg.DYNAMODB_ENDPOINT) store = await startDynamoDbLocal(cfg.DATA_DIR, cfg.DYNAMODB_PORT);
  const endpoint = cfg.DYNAMODB_ENDPOINT ?? store!.endpoint;
  const deps = createDeps({ ...cfg, DYNAMODB_ENDPOINT: endpoint }, overrides);
  try {
    await ensureTable(deps.client, deps.tableName);
    const bootstrap = await bootstrapAdmin(deps, {
      apiKey: cfg.BOOTSTRAP_API_KEY,
      email: cfg.BOOTSTRAP_EMAIL,
      password: cfg.BOOTSTRAP_PASSWORD,
    });
    // The prefix the route functions serve (pipeline.ts reads the same config()).
    const prefix = config().API_PREFIX;
    const server = createGateway(localFunctions(deps), prefix);
    if (cfg.LOG_REQUESTS) printRequestLines(server, (line) => console.log(line));
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(cfg.PORT, cfg.HOST, () => done());
    });
    const pruning = startPruning(deps, cfg.PRUNE_INTERVAL_SECONDS * 1000);
    const { port } = server.address() as AddressInfo;
    const origin = `http://${cfg.HOST.includes(':') ? `[${cfg.HOST}]` : cfg.HOST}:${port}`;
    return {
      origin,
      baseUrl: origin + prefix,
      bootstrap,
      dynamoDbEndpoint: endpoint,
      tableName: deps.tableName,
      stop: async () => {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        await pruning.stop();
        deps.close();
        await store?.stop();
      },
    };
  } catch (error) {
    deps.close();
    await store?.stop();
    throw error;
  }
}

/**
 * The pruning job, as the hourly schedule runs it in AWS: once at start, then every
 * `intervalMs`, never two runs at once. It logs (at INFO) only when it deleted something.
 */
function startPruning(deps: Deps, intervalMs: number) {
  let running: Promise<void> | undefined;
  const run = () => {
    const { logger } = telemetry();
    running ??= pruneExpired(deps)
      .then(
        (counts) => {
          if (Object.values(counts).some((n) => n > 0)) logger.info('pruned', { ...counts });
        },
        (error: Error) => logger.error('pruning failed', error),
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
