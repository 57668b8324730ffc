/**
 * `npm run bench`: every performance figure of the project in one run, printed as a table
 * and written to bench/results.json. Phases run one after another, never two loads at once
 * (the machine has two cores), and everything started here is stopped before exit.
 */
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bcryptHasher } from '#core/deps';
import { createDocumentClient } from '#core/store/client';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { parseLocalConfig } from '#lib/local/local-config';
import { startLocalRunner } from '#lib/local/runner';
import { measureBundles, sdkImportMs } from './bundles.ts';
import { countBcryptCompares, countDynamoDbCalls } from './counters.ts';
import { failuresOf, runLoad, type LoadOptions } from './load.ts';
import { dynamoDbLocalPids, waitUntilGone } from './processes.ts';
import { atLeast, atMost, renderTable, row, writeResults, type Row } from './report.ts';
import { dbReadsOfWarmWorkspaceGet, startBaselineServer, startDbCeilingServer } from './servers.ts';
import { measureStartToHealthy } from './startup.ts';

// The SDK warns that its 2027 releases need Node 22; Lambda runs 22 and the warning is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

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
  region: 'us-east-1',
  table: 'tenant-api-bench',
};
const resultsFile = fileURLToPath(new URL('./results.json', import.meta.url));

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
async function load(url: string, extra: Partial<LoadOptions> = {}) {
  const cpuBefore = process.cpuUsage();
  const result = await runLoad({ url, connections: settings.connections, warmupSeconds: settings.warmupSeconds, seconds: settings.seconds, ...extra });
  const cpu = process.cpuUsage(cpuBefore);
  return { ...result, serverCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / (result.warmup.responses + result.measured.responses) };
}
type ServerLoad = Awaited<ReturnType<typeof load>>;

/** One request that must answer 200 with the workspace; a bench of error answers would measure nothing. */
async function getWorkspaceOnce(url: string, headers: Record<string, string>, workspaceId: string) {
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200 || (JSON.parse(body) as { data?: { id?: string } }).data?.id !== workspaceId) {
    throw new Error(`GET ${url} answered ${res.status}: ${body}`);
  }
}

async function main() {
  const dynamoDbLocalBefore = dynamoDbLocalPids();
  // Other work on the machine skews every figure; the load average is kept with them.
  const loadAverageAtStart = loadavg();
  if (loadAverageAtStart[0]! > 0.5) console.log(`  note: the machine is busy (1-min load average ${loadAverageAtStart[0]!.toFixed(2)}); figures will be lower and noisier`);

  // CPU-heavy phases first, while no server is running.
  step(`building the Lambda bundles and timing their init (${settings.initRuns} fresh processes each)`);
  const bundles = await measureBundles(settings.initRuns);
  const sdkImport = await sdkImportMs(settings.initRuns);

  step('npm start: time to a healthy /health, then SIGTERM');
  const startup = await measureStartToHealthy();

  step(`baseline node:http server (${settings.warmupSeconds} s warm-up + ${settings.seconds} s)`);
  const baselineServer = await startBaselineServer();
  const baseline = await load(baselineServer.url).finally(baselineServer.stop);

  step('DynamoDB Local (in memory) and the local runner, which bootstraps a user, workspace and key');
  const store = await startDynamoDbLocal('memory');
  cleanups.push(store.stop);
  const ourStorePids = dynamoDbLocalPids(Number(new URL(store.endpoint).port));
  const calls = countDynamoDbCalls();
  const bcrypt = countBcryptCompares(bcryptHasher);
  const cfg = parseLocalConfig({ DATA_DIR: 'memory', PORT: '0', HOST: '127.0.0.1', DYNAMODB_ENDPOINT: store.endpoint, TABLE_NAME: settings.table });
  // Started once and left idle until its own phase: a second runner in this process would
  // inherit the first one's verified-key cache and hide the cold bcrypt.
  const runner = await startLocalRunner(cfg, { documentClient: calls.attach, hasher: bcrypt.hasher });
  cleanups.push(runner.stop);
  const bootstrap = runner.bootstrap;
  if (!bootstrap) throw new Error(`table ${settings.table} was not empty: nothing was bootstrapped`);

  step('DB-bound ceiling: the same three GetItems on a bare server');
  // Counted like the runner's client, so that both carry the same instrumentation.
  const ceilingClient = countDynamoDbCalls().attach(createDocumentClient({ AWS_REGION: settings.region, DYNAMODB_ENDPOINT: store.endpoint }));
  cleanups.push(() => ceilingClient.destroy());
  const reads = await dbReadsOfWarmWorkspaceGet(ceilingClient, settings.table, bootstrap);
  const ceilingServer = await startDbCeilingServer(ceilingClient, reads);
  const ceiling = await load(ceilingServer.url, { warmupSeconds: settings.warmupSeconds + settings.jvmWarmupSeconds }).finally(ceilingServer.stop);

  step('local runner: warm authenticated GET /api/v1/workspaces/{id}');
  const url = `${runner.baseUrl}/workspaces/${bootstrap.workspaceId}`;
  const headers = { Authorization: `Bearer ${bootstrap.apiKey}` };
  calls.reset();
  bcrypt.reset();
  await getWorkspaceOnce(url, headers, bootstrap.workspaceId); // cold: gsi1 Query + bcrypt
  const coldRequestCalls = calls.snapshot();
  calls.reset();
  for (let i = 0; i < settings.countedReads; i++) await getWorkspaceOnce(url, headers, bootstrap.workspaceId);
  const warmCallsPerRead = calls.total() / settings.countedReads;
  const warmCallsByCommand = Object.fromEntries(Object.entries(calls.snapshot()).map(([k, n]) => [k, n / settings.countedReads]));
  const local = await load(url, { headers });
  const runnerRequests = 1 + settings.countedReads + local.warmup.responses + local.measured.responses;
  const bcryptCompares = bcrypt.compares();

  step('teardown');
  await teardown();
  const ourStoreLeft = await waitUntilGone(ourStorePids, 10_000);
  const dynamoDbLocalAfter = dynamoDbLocalPids();

  const ratio = local.measured.requestsPerSecond / ceiling.measured.requestsPerSecond;
  const loadSection =
    `Load: ${settings.connections} keep-alive connections to 127.0.0.1, ${settings.seconds} s after ${settings.warmupSeconds} s warm-up` +
    ` (${settings.warmupSeconds + settings.jvmWarmupSeconds} s for the ceiling, to warm DynamoDB Local)`;
  const loadRows = (name: string, r: ServerLoad): Row[] => [
    row(loadSection, `${name}: throughput`, r.measured.requestsPerSecond, 'req/s'),
    row(loadSection, `${name}: latency p50`, r.measured.p50Ms, 'ms'),
    row(loadSection, `${name}: latency p99`, r.measured.p99Ms, 'ms'),
    row(loadSection, `${name}: server CPU per request`, r.serverCpuMsPerRequest, 'ms'),
    row(loadSection, `${name}: non-2xx, errors, timeouts`, failuresOf(r.measured), '', atMost(0)),
  ];
  const readSection = 'Warm authenticated GET /api/v1/workspaces/{id} on the local runner';
  const bundleSection = 'Lambda bundles (bin/build.ts buildAll, @aws-sdk/* external)';
  const kib = 1024;
  const rows: Row[] = [
    ...loadRows('bare node:http baseline', baseline),
    ...loadRows('DB-bound ceiling (3 GetItems)', ceiling),
    ...loadRows('local runner', local),
    row(loadSection, 'local runner / DB-bound ceiling, req/s', ratio, '×', atLeast(0.8)),
    row(readSection, 'DynamoDB calls per warm read', warmCallsPerRead, '', atMost(3)),
    row(readSection, 'bcrypt verifications per 1,000 requests', (bcryptCompares / runnerRequests) * 1000, '', {
      target: '≤ 1 per key per process',
      check: () => bcryptCompares <= 1, // one key in use
    }),
    ...bundles.flatMap((b) => [
      row(bundleSection, `${b.name}: size`, b.bytes / kib, 'KiB', atMost(b.name === 'authorizer' ? 300 : 1024, 'KiB')),
      row(bundleSection, `${b.name}: module init, median of ${b.initRunsMs.length}`, b.initMedianMs, 'ms', atMost(150, 'ms')),
    ]),
    row(bundleSection, `(context) @aws-sdk client-dynamodb + lib-dynamodb import alone`, sdkImport.medianMs, 'ms'),
    row('npm start (node --import tsx bin/local.ts, DATA_DIR=memory)', 'time to healthy', startup.msToHealthy, 'ms', atMost(15_000, 'ms')),
    row('npm start (node --import tsx bin/local.ts, DATA_DIR=memory)', 'its processes alive 5 s after SIGTERM', startup.leftAfterSigterm.length, '', atMost(0)),
    row('Teardown', "bench's own DynamoDB Local left running", ourStoreLeft.length, '', atMost(0)),
  ];

  console.log(`\n${renderTable(rows)}`);
  console.log(`\nDynamoDB calls, cold first request: ${JSON.stringify(coldRequestCalls)}`);
  console.log(`DynamoDB calls per warm read:      ${JSON.stringify(warmCallsByCommand)}`);
  console.log(`bcrypt verifications: ${bcryptCompares} over ${runnerRequests.toLocaleString('en-US')} requests`);
  console.log(
    `pgrep -f DynamoDBLocal: before [${dynamoDbLocalBefore.join(', ')}], after [${dynamoDbLocalAfter.join(', ')}]` +
      ` (the bench's own: ${[...ourStorePids, ...startup.processes].join(', ')}; still running: ${ourStoreLeft.length + startup.leftAfterSigterm.length})`,
  );

  writeResults(resultsFile, {
    at: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, loadAverageAtStart, loadAverageAtEnd: loadavg() },
    settings,
    load: { baseline, dbCeiling: ceiling, localRunner: local, runnerToCeilingRatio: ratio },
    dbCeilingReads: reads,
    dynamoDbCalls: { coldRequest: coldRequestCalls, perWarmRead: warmCallsPerRead, perWarmReadByCommand: warmCallsByCommand },
    bcrypt: { compares: bcryptCompares, requests: runnerRequests, per1000Requests: (bcryptCompares / runnerRequests) * 1000 },
    bundles,
    sdkImport,
    startup,
    processes: { dynamoDbLocalBefore, dynamoDbLocalAfter, ourStorePids, ourStoreLeft },
    rows,
  });
  console.log(`\nAll figures: ${resultsFile}`);
}

main().then(
  () => process.exit(0),
  async (error: Error) => {
    console.error(`bench failed: ${error.stack ?? error.message}`);
    await teardown();
    process.exit(1);
  },
);
