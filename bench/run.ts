/**
 * `npm run bench`: every performance figure of the project in one run, printed as a table
 * and written to bench/results.json. Phases run one after another, never two loads at once
 * (the machine has two cores), and everything started here is stopped before exit.
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bcryptHasher, createDeps } from '#core/adapters/create-deps';
import { rewriteGeneratedSection } from '#lib/docs/generated-section';
import { performanceGuide, performanceTables } from '#lib/docs/performance-tables';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { parseLocalConfig } from '#lib/local/local-config';
import { startLocalRunner } from '#lib/local/runner';
import { measureBundles, sdkImportMs } from './bundles.ts';
import { captureDynamoDbCalls } from './call-recorder.ts';
import { type Counters, countBcryptCompares, countDynamoDbCalls } from './counters.ts';
import { measureCredential } from './credentials.ts';
import { watchDeliverySuccesses } from './delivery-watch.ts';
import { simulateEnterpriseKey } from './enterprise-meter.ts';
import { createUserToken, sessionHeaders } from './http.ts';
import { measureIdempotentReplay } from './idempotency.ts';
import { measureListPageOne } from './lists.ts';
import { type LoadOptions, runLoad, type ServerLoad } from './load.ts';
import { measureLogins } from './logins.ts';
import { measurePixel } from './pixel.ts';
import { measurePostBatch } from './post-batch.ts';
import { measurePostLists } from './post-lists.ts';
import { dynamoDbLocalPids, waitUntilGone } from './processes.ts';
import { renderTable, writeResults } from './report.ts';
import { pixelRows, tableRows } from './rows.ts';
import { dbReadsOfWarmWorkspaceGet, startBaselineServer, startDbCeilingServer } from './servers.ts';
import { sideBySide } from './side-by-side.ts';
import { measureStartToHealthy } from './startup.ts';
import { measureKeyVerification } from './verification.ts';
import { measureWebhooks } from './webhooks.ts';

// The SDK warns that its 2027 releases need Node 22; Lambda runs 22 and the warning is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The webhook receiver is http://127.0.0.1; read once, by the first webhookConfig(), i.e. the runner's start.
process.env.WEBHOOK_ALLOW_INSECURE = '1';

const settings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  warmupSeconds: 1,
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  /**
   * Extra warm-up before the first DB-bound load. DynamoDB Local's JVM takes about ten
   * seconds of load to reach steady speed (it roughly doubles meanwhile); measured colder,
   * the ceiling would be low and the runner, loaded after it, would look better than it is.
   */
  jvmWarmupSeconds: 10,
  /** Fresh processes per bundle; the median is reported. */
  initRuns: 5,
  /** Sequential warm requests over which DynamoDB calls are counted. */
  countedReads: 100,
  /** Load length for the user token and the session (the API key gets `seconds`), per turn. */
  credentialSeconds: Number(process.env.BENCH_CREDENTIAL_SECONDS ?? 3),
  /** Turns of the runner and the DB-bound ceiling, one after the other, per credential type. */
  turns: Number(process.env.BENCH_TURNS ?? 3),
  /** Sequential POST /login with the right password, and of each kind of failure. */
  logins: 50,
  failedLogins: 30,
  /** New API keys verified cold in process, then this many times each warm. */
  verifiedKeys: 20,
  warmVerifications: 10,
  /** Page one of a list at these two sizes, this many requests each. */
  listSizes: [100, 10_000] as [number, number],
  listRequests: 50,
  /** POST /resources/batch of this many post creates, against as many single POST /posts, in this many turns. */
  postBatch: { operations: 100, runs: 5 },
  /** POST /workspaces with an Idempotency-Key, each then repeated. */
  idempotentRequests: 50,
  webhooks: {
    endpoints: 100,
    /** Events fanned out to every endpoint for the throughput phase: 1,000 deliveries timed, after 200 to warm up. */
    events: 10,
    warmupEvents: 2,
    /** Attempts under way at once in the throughput phase. */
    concurrency: 16,
    listSizes: [100, 10_000] as [number, number],
    listRequests: 50,
  },
  pixel: {
    countedEvents: 50,
    /** Each connection its own client address, sending warm-up + requests ≤ 300 (the track limit a minute). */
    connections: Number(process.env.BENCH_PIXEL_CONNECTIONS ?? 16),
    warmupRequests: 30,
    requests: Number(process.env.BENCH_PIXEL_REQUESTS ?? 200),
    turns: Number(process.env.BENCH_TURNS ?? 3),
  },
  region: 'us-east-1',
  table: 'tenant-api-bench',
};
/** BENCH_ONLY=pixel runs the store, the runner and the pixel phase alone, and writes its figures to the temporary directory (results.json is left as it is). */
const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== 'pixel') throw new Error(`BENCH_ONLY=${only}: only "pixel" can be run alone`);
const resultsFile = only ? join(tmpdir(), `bench-results.${only}.json`) : fileURLToPath(new URL('./results.json', import.meta.url));

/** Teardown steps, run last-in first-out at the end or on Ctrl-C. */
const cleanups: Array<() => Promise<void> | void> = [];
async function teardown() {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.error('teardown:', error);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void teardown().finally(() => process.exit(130)));
}

const step = (what: string) => console.log(`• ${what}`);

/**
 * Loads a server that runs in this process, and also answers this process's CPU time per
 * request: with DynamoDB Local and the load generator sharing two cores, every ms the
 * server spends is taken from the store, so CPU per request explains the req/s ratio.
 */
async function load(url: string, extra: Partial<LoadOptions> = {}): Promise<ServerLoad> {
  const cpuBefore = process.cpuUsage();
  const result = await runLoad({
    url,
    connections: settings.connections,
    warmupSeconds: settings.warmupSeconds,
    seconds: settings.seconds,
    ...extra,
  });
  const cpu = process.cpuUsage(cpuBefore);
  return { ...result, serverCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / (result.warmup.responses + result.measured.responses) };
}

/** One request that must answer 200 with the workspace; a bench of error answers would measure nothing. */
async function getWorkspaceOnce(url: string, headers: Record<string, string>, workspaceId: string) {
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200 || (JSON.parse(body) as { data?: { id?: string } }).data?.id !== workspaceId) {
    throw new Error(`GET ${url} answered ${res.status}: ${body}`);
  }
}

/** DynamoDB Local in memory, the local runner on it (its document client counted and captured), and a client of the store as the ceilings use it. */
async function startStoreAndRunner() {
  step('DynamoDB Local (in memory) and the local runner, which bootstraps a user, workspace and key');
  const store = await startDynamoDbLocal('memory', undefined, { sustained: true });
  cleanups.push(store.stop);
  const ourStorePids = dynamoDbLocalPids(Number(new URL(store.endpoint).port));
  const counters: Counters = { calls: countDynamoDbCalls(), bcrypt: countBcryptCompares(bcryptHasher) };
  // A day between prune runs keeps the pruner's queries out of the per-request call counts.
  const cfg = parseLocalConfig({
    DATA_DIR: 'memory',
    PORT: '0',
    HOST: '127.0.0.1',
    DYNAMODB_ENDPOINT: store.endpoint,
    TABLE_NAME: settings.table,
    PRUNE_INTERVAL_SECONDS: '86400',
    LOG_REQUESTS: '0',
  });
  // Started once and left idle until its own phase: a second runner in this process would
  // share the first one's verified-credential caches and hide the cold bcrypt.
  const deliveries = watchDeliverySuccesses();
  const capture = captureDynamoDbCalls();
  const runner = await startLocalRunner(cfg, {
    documentClient: (client) => capture.attach(deliveries.attach(counters.calls.attach(client))),
    hasher: counters.bcrypt.hasher,
  });
  cleanups.push(runner.stop);
  const bootstrap = runner.bootstrap;
  if (!bootstrap) throw new Error(`table ${settings.table} was not empty: nothing was bootstrapped`);
  // Counted like the runner's client, so that both carry the same instrumentation.
  const ceilingDeps = createDeps(
    { AWS_REGION: settings.region, DYNAMODB_ENDPOINT: store.endpoint, TABLE_NAME: settings.table },
    { documentClient: countDynamoDbCalls().attach },
  );
  cleanups.push(ceilingDeps.close);
  return { store, ourStorePids, counters, deliveries, capture, runner, bootstrap, ceilingDeps };
}

/** The pixel phase alone (BENCH_ONLY=pixel): its table rows, and its figures in the temporary directory. */
async function pixelOnly() {
  const { counters, capture, runner, bootstrap, ceilingDeps } = await startStoreAndRunner();
  const pixel = await measurePixel(
    runner,
    bootstrap,
    counters,
    capture,
    { client: ceilingDeps.client, table: settings.table },
    { ...settings.pixel, warmTurn: true },
    step,
  );
  await teardown();
  const rows = pixelRows(pixel);
  console.log(`\n${renderTable(rows)}`);
  console.log(`\npixel DynamoDB calls of one accepted event, in order: ${pixel.callsOfOneEvent.join(', ')}`);
  console.log(`pixel: the runner's background calls during its turns, not replayed: ${JSON.stringify(pixel.load.notReplayed)}`);
  writeResults(resultsFile, {
    at: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, loadAverageAtEnd: loadavg() },
    settings: settings.pixel,
    pixel,
    rows,
  });
  console.log(`\nPixel figures: ${resultsFile}`);
}

async function main() {
  if (only === 'pixel') return pixelOnly();
  const dynamoDbLocalBefore = dynamoDbLocalPids();
  // Other work on the machine skews every figure; the load average is kept with them.
  const loadAverageAtStart = loadavg();
  if (loadAverageAtStart[0]! > 0.5)
    console.log(`  note: the machine is busy (1-min load average ${loadAverageAtStart[0]!.toFixed(2)}); figures will be lower and noisier`);

  // CPU-heavy phases first, while no server is running.
  step(`building the Lambda bundles and timing their init (${settings.initRuns} fresh processes each)`);
  const bundles = await measureBundles(settings.initRuns);
  const sdkImport = await sdkImportMs(settings.initRuns);

  step('npm start: time to a healthy /health, then SIGTERM');
  const startup = await measureStartToHealthy();

  step(`baseline node:http server (${settings.warmupSeconds} s warm-up + ${settings.seconds} s)`);
  const baselineServer = await startBaselineServer();
  const baseline = await load(baselineServer.url).finally(baselineServer.stop);

  const { store, ourStorePids, counters, deliveries, capture, runner, bootstrap, ceilingDeps } = await startStoreAndRunner();

  step('DB-bound ceiling: the same TransactGetItems, usage-meter UpdateItem and GetItem on a bare server');
  const reads = await dbReadsOfWarmWorkspaceGet(ceilingDeps, bootstrap);
  const ceilingServer = await startDbCeilingServer(ceilingDeps.client, reads);
  cleanups.push(ceilingServer.stop);
  const ceiling = await load(ceilingServer.url, { warmupSeconds: settings.warmupSeconds + settings.jvmWarmupSeconds });

  const url = `${runner.baseUrl}/workspaces/${bootstrap.workspaceId}`;
  const credentialPhase = (headers: Record<string, string>, seconds: number) =>
    measureCredential(
      counters,
      settings.countedReads,
      () => getWorkspaceOnce(url, headers, bootstrap.workspaceId),
      () => sideBySide(load, { url, headers }, ceilingServer.url, settings.turns, seconds),
    );
  step(
    `local runner, API key: warm authenticated GET /api/v1/workspaces/{id}, in ${settings.turns} turns of ${settings.seconds} s with the ceiling's`,
  );
  const apiKey = await credentialPhase({ Authorization: `Bearer ${bootstrap.apiKey}` }, settings.seconds);

  step(
    `POST /login: ${settings.logins} right passwords, ${settings.failedLogins} unknown emails, ${settings.failedLogins} wrong passwords`,
  );
  const logins = await measureLogins(runner.origin, bootstrap, counters, { ok: settings.logins, failed: settings.failedLogins });
  const userToken = await createUserToken(runner.origin, runner.baseUrl, bootstrap, 'bench');

  step(`local runner, user token and session cookie (${settings.turns} turns of ${settings.credentialSeconds} s each, with the ceiling's)`);
  const token = await credentialPhase({ Authorization: `Bearer ${userToken}` }, settings.credentialSeconds);
  // The last timed login's session, used by nothing else yet: its first request is cold.
  const session = await credentialPhase(sessionHeaders(logins.lastLogin), settings.credentialSeconds);

  step(`API key verification in process: ${settings.verifiedKeys} new keys cold, then ${settings.warmVerifications} times each warm`);
  const verification = await measureKeyVerification(store.endpoint, settings.table, bootstrap, {
    keys: settings.verifiedKeys,
    warmRepeats: settings.warmVerifications,
  });

  step(
    `page one of GET /api-keys at ${settings.listSizes.map((n) => n.toLocaleString('en-US')).join(' and ')} keys (seeded by BatchWriteItem), ${settings.listRequests} requests each`,
  );
  const lists = await measureListPageOne(ceilingDeps, runner.baseUrl, bootstrap, counters, {
    sizes: settings.listSizes,
    requests: settings.listRequests,
  });

  step(
    `GET /posts at ${settings.listSizes.map((n) => n.toLocaleString('en-US')).join(' and ')} posts (seeded by BatchWriteItem, with their index): page one, then two searches, ${settings.listRequests} requests each`,
  );
  const posts = await measurePostLists(ceilingDeps, runner.baseUrl, bootstrap, counters, {
    sizes: settings.listSizes,
    requests: settings.listRequests,
  });
  for (const search of [posts.rare, posts.common])
    console.log(`  search=${search.word}: meta.total ${search.totals.join(' and ')} expected, and answered by every request`);

  const { operations, runs } = settings.postBatch;
  step(`POST /resources/batch of ${operations} post creates against ${operations} single POST /posts, ${runs} turns`);
  const postBatch = await measurePostBatch(ceilingDeps, runner.baseUrl, bootstrap, counters, settings.postBatch);

  step(`idempotency: ${settings.idempotentRequests} POST /workspaces with an Idempotency-Key, each repeated at once`);
  const idempotency = await measureIdempotentReplay(runner.baseUrl, bootstrap, counters, settings.idempotentRequests);

  const webhooks = await measureWebhooks(
    { AWS_REGION: settings.region, DYNAMODB_ENDPOINT: store.endpoint, TABLE_NAME: settings.table },
    { baseUrl: runner.baseUrl, successes: deliveries.successes, webhookSecrets: runner.webhookSecrets },
    bootstrap,
    counters,
    settings.webhooks,
    step,
  );

  const p = settings.pixel;
  step(`pixel: POST /pixel/track, calls per event, then ${p.turns} turns of the runner and its DB-bound ceiling`);
  const pixel = await measurePixel(runner, bootstrap, counters, capture, { client: ceilingDeps.client, table: settings.table }, p, step);

  step('usage meter: one enterprise key at 100,000, 200,000 and 400,000 requests a minute, simulated');
  const meter = [100_000, 200_000, 400_000].map((offered) => simulateEnterpriseKey(offered));

  step('teardown');
  await teardown();
  const ourStoreLeft = await waitUntilGone(ourStorePids, 10_000);
  const dynamoDbLocalAfter = dynamoDbLocalPids();

  const { lastLogin: _cookies, ...loginFigures } = logins;
  const credentials = { apiKey, userToken: token, session };
  const figures = {
    settings,
    baseline,
    ceiling,
    credentials,
    logins: loginFigures,
    verification,
    lists,
    posts,
    postBatch,
    bundles,
    sdkImport,
    startup,
    ourStoreLeft,
    meter,
    idempotency,
    webhooks,
    pixel,
  };
  const rows = tableRows(figures);
  console.log(`\n${renderTable(rows)}`);
  for (const [name, c] of Object.entries(credentials)) {
    console.log(
      `\n${name}: DynamoDB calls, cold first request ${JSON.stringify(c.coldRequestCalls)}; per warm read ${JSON.stringify(c.warm.dynamoDbCallsEachByCommand)}`,
    );
    console.log(`${name}: bcrypt compares ${c.bcryptCompares} over ${c.requests.toLocaleString('en-US')} requests`);
  }
  console.log(
    `\nlogin DynamoDB calls: right ${JSON.stringify(logins.ok.dynamoDbCallsEachByCommand)}; unknown email ${JSON.stringify(logins.unknownEmail.dynamoDbCallsEachByCommand)}`,
  );
  console.log(
    `key verification DynamoDB calls: cold ${JSON.stringify(verification.cold.dynamoDbCallsEachByCommand)}; warm ${JSON.stringify(verification.warm.dynamoDbCallsEachByCommand)}`,
  );
  console.log(
    `webhook fan-out DynamoDB calls (the PATCH, fan-out and ${webhooks.fanOut.endpoints} attempts): ${JSON.stringify(webhooks.fanOut.dynamoDbCallsByCommand)}`,
  );
  console.log(
    `post create DynamoDB calls each (fan-out included): batch ${JSON.stringify(postBatch.batchCallsEach)}; single ${JSON.stringify(postBatch.singleCallsEach)}`,
  );
  console.log(`webhook attempt DynamoDB calls each: ${JSON.stringify(webhooks.throughput.dynamoDbCallsEachByCommand)}`);
  console.log(
    `pixel DynamoDB calls each: accepted ${JSON.stringify(pixel.accepted.dynamoDbCallsEachByCommand)}; rejected ${JSON.stringify(pixel.rejected.dynamoDbCallsEachByCommand)}; not replayed (the runner's background work) ${JSON.stringify(pixel.load.notReplayed)}`,
  );
  const { guessing } = verification;
  console.log(
    `${guessing.attempts} wrong secrets with a known prefix from one address: answered ${JSON.stringify(guessing.answered)}, ${guessing.bcryptCompares} bcrypt compares, ${Math.round(guessing.ms)} ms; then from there the known key answered ${guessing.knownKeyStatus}, a neighbour's new key ${guessing.neighbourKeyStatus}`,
  );
  console.log(
    `pgrep -f DynamoDBLocal: before [${dynamoDbLocalBefore.join(', ')}], after [${dynamoDbLocalAfter.join(', ')}]` +
      ` (the bench's own: ${[...ourStorePids, ...startup.processes].join(', ')}; still running: ${ourStoreLeft.length + startup.leftAfterSigterm.length})`,
  );

  const results = {
    at: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, loadAverageAtStart, loadAverageAtEnd: loadavg() },
    settings,
    load: { baseline, dbCeiling: ceiling }, // the runner's loads are under credentials
    dbCeilingReads: reads,
    credentials: credentials,
    logins: loginFigures,
    keyVerification: verification,
    lists,
    posts,
    postBatch,
    meter,
    idempotency,
    webhooks,
    pixel,
    bundles,
    sdkImport,
    startup,
    processes: { dynamoDbLocalBefore, dynamoDbLocalAfter, ourStorePids, ourStoreLeft },
    rows,
  };
  writeResults(resultsFile, results);
  rewriteGeneratedSection(performanceGuide.file, performanceGuide.section, performanceTables(results));
  console.log(`\nAll figures: ${resultsFile}; their tables: ${performanceGuide.file}`);
}

main().then(
  () => process.exit(0),
  async (error: Error) => {
    console.error(`bench failed: ${error.stack ?? error.message}`);
    await teardown();
    process.exit(1);
  },
);
