import { failedAuthenticationPolicy } from '#core/credentials/failed-authentications';
import type { Row } from '#lib/docs/performance-tables';
import type { BundleFigures } from './bundles.ts';
import type { SeriesFigures } from './counters.ts';
import type { CredentialFigures } from './credentials.ts';
import type { MeterSimulation } from './enterprise-meter.ts';
import type { ListFigures } from './lists.ts';
import { failuresOf, type ServerLoad } from './load.ts';
import type { PixelFigures } from './pixel.ts';
import type { BatchFigures } from './post-batch.ts';
import type { PostListFigures } from './post-lists.ts';
import { atLeast, atMost, exactly, row } from './report.ts';
import type { StartupFigures } from './startup.ts';
import { median } from './stats.ts';
import type { GuessingFigures } from './verification.ts';
import type { WebhookFigures } from './webhooks.ts';

export interface Figures {
  settings: { connections: number; warmupSeconds: number; seconds: number; jvmWarmupSeconds: number; credentialSeconds: number };
  baseline: ServerLoad;
  ceiling: ServerLoad;
  credentials: { apiKey: CredentialFigures; userToken: CredentialFigures; session: CredentialFigures };
  logins: { ok: SeriesFigures; unknownEmail: SeriesFigures; wrongPassword: SeriesFigures };
  verification: { cold: SeriesFigures; warm: SeriesFigures; guessing: GuessingFigures };
  lists: ListFigures;
  posts: PostListFigures;
  postBatch: BatchFigures;
  bundles: BundleFigures[];
  sdkImport: { medianMs: number };
  startup: StartupFigures;
  ourStoreLeft: number[];
  meter: MeterSimulation[];
  idempotency: { first: SeriesFigures; replay: SeriesFigures };
  webhooks: WebhookFigures;
  pixel: PixelFigures;
}

const sum = (byCommand: Record<string, number>) => Object.values(byCommand).reduce((a, b) => a + b, 0);

/** UpdateItem calls among calls by command name (the client's own or the document client's name). */
const updatesIn = (byCommand: Record<string, number>) =>
  Object.entries(byCommand).reduce((sum, [name, n]) => sum + (name.startsWith('Update') ? n : 0), 0);

const credentialNames = { apiKey: 'API key', userToken: 'user token', session: 'session cookie' } as const;

/** Sum of the measured phases of several turns: ok responses over their whole time; failures and 429s added up. */
function turnsOf(turns: PixelFigures['load']['runner']) {
  const ok = turns.reduce((n, t) => n + t.measured.ok, 0);
  const seconds = turns.reduce((n, t) => n + t.measured.seconds, 0);
  const failures = turns.reduce((n, t) => n + t.measured.responses - t.measured.ok + t.measured.errors, 0);
  const limited = turns.reduce((n, t) => n + (t.warmup.statuses['429'] ?? 0) + (t.measured.statuses['429'] ?? 0), 0);
  const cpuMs = turns.reduce((n, t) => n + t.serverCpuMsPerRequest * (t.warmup.responses + t.measured.responses), 0);
  const requests = turns.reduce((n, t) => n + t.warmup.responses + t.measured.responses, 0);
  return { perSecond: ok / seconds, failures, limited, cpuMsEach: cpuMs / requests };
}

/** The pixel rows: what one tracked event costs in DynamoDB calls, and the runner's pixel path against its DB-bound ceiling. */
export function pixelRows(p: PixelFigures): Row[] {
  const callSection = `POST /api/v1/pixel/track on the local runner over HTTP, sequential (${p.accepted.samples} accepted pageviews, ${p.rejected.samples} of a bot)`;
  const l = p.load;
  const loadSection =
    `POST /api/v1/pixel/track: ${l.connections} keep-alive connections, each from its own 127.x.y.z address (${l.addresses} in all),` +
    ` ${l.requestsPerAddress} requests each (≤ 300 a minute per address), in ${l.runner.length} turns with a bare server replaying the same DynamoDB calls`;
  const [runner, ceiling] = [turnsOf(l.runner), turnsOf(l.ceiling)];
  const runnerMedian = (pick: (t: PixelFigures['load']['runner'][number]) => number) => median(l.runner.map(pick));
  return [
    row(callSection, 'accepted event: DynamoDB writes per event', p.accepted.writesEach, '', atMost(3)),
    row(callSection, 'accepted event: DynamoDB reads per event', p.accepted.readsEach, ''),
    row(callSection, 'accepted event: latency p50', p.accepted.p50Ms, 'ms'),
    row(callSection, 'rejected event (a bot, not counted): DynamoDB writes per event', p.rejected.writesEach, ''),
    row(callSection, 'rejected event: DynamoDB reads per event', p.rejected.readsEach, ''),
    row(loadSection, 'runner: throughput', runner.perSecond, 'req/s'),
    row(loadSection, 'DB-bound ceiling (the same calls replayed): throughput', ceiling.perSecond, 'req/s'),
    row(
      loadSection,
      `runner / DB-bound ceiling, req/s (turns ${l.ratios.map((r) => r.toFixed(2)).join(', ')})`,
      l.ratio,
      '×',
      atLeast(0.7),
    ),
    row(
      loadSection,
      'runner: latency p50 (median of the turns)',
      runnerMedian((t) => t.measured.p50Ms),
      'ms',
    ),
    row(
      loadSection,
      'runner: latency p99 (median of the turns)',
      runnerMedian((t) => t.measured.p99Ms),
      'ms',
    ),
    row(loadSection, 'runner CPU per request', runner.cpuMsEach, 'ms'),
    row(loadSection, 'ceiling CPU per request, in the same turns', ceiling.cpuMsEach, 'ms'),
    row(loadSection, 'runner: 429 answers (rate limit per address)', runner.limited, '', atMost(0)),
    row(loadSection, 'non-2xx and errors, runner and ceiling', runner.failures + ceiling.failures, '', atMost(0)),
  ];
}

/** Every figure of the run as table rows, with its target where it has one. */
export function tableRows(f: Figures): Row[] {
  const s = f.settings;
  const loadSection =
    `Load: ${s.connections} keep-alive connections to 127.0.0.1, ${s.seconds} s after ${s.warmupSeconds} s warm-up` +
    ` (${s.warmupSeconds + s.jvmWarmupSeconds} s for the ceiling, to warm DynamoDB Local; ${s.credentialSeconds} s for user token and session)`;
  const loadRows = (name: string, r: ServerLoad): Row[] => [
    row(loadSection, `${name}: throughput`, r.measured.requestsPerSecond, 'req/s'),
    row(loadSection, `${name}: latency p50`, r.measured.p50Ms, 'ms'),
    row(loadSection, `${name}: latency p99`, r.measured.p99Ms, 'ms'),
    row(loadSection, `${name}: server CPU per request`, r.serverCpuMsPerRequest, 'ms'),
    row(loadSection, `${name}: non-2xx, errors, timeouts`, failuresOf(r.measured), '', atMost(0)),
  ];

  const readSection = 'Warm authenticated GET /api/v1/workspaces/{id} on the local runner, per credential type';
  const credentialRows = Object.entries(f.credentials).flatMap(([key, c]): Row[] => {
    const name = credentialNames[key as keyof typeof credentialNames];
    const isKey = key === 'apiKey';
    const bcrypt = isKey
      ? row(readSection, `${name}: bcrypt verifications per 1,000 requests`, (c.bcryptCompares / c.requests) * 1000, '', {
          target: '≤ 1 per key per process',
          check: () => c.bcryptCompares <= 1, // one key in use
        })
      : row(
          readSection,
          `${name}: bcrypt verifications over ${c.requests.toLocaleString('en-US')} requests`,
          c.bcryptCompares,
          '',
          atMost(0),
        );
    return [
      row(readSection, `${name}: DynamoDB calls per warm read`, c.warm.dynamoDbCallsEach, '', atMost(3)),
      // The rate limit and api_calls are one conditional UpdateItem of the usage meter.
      row(readSection, `${name}: usage-meter writes per warm read`, updatesIn(c.warm.dynamoDbCallsEachByCommand), '', atMost(1)),
      bcrypt,
      // In turns with the ceiling (bench/side-by-side.ts): the median of the turns' ratios.
      row(
        readSection,
        `${name}: runner / DB-bound ceiling, req/s (turns ${c.load.ratios.map((r) => r.toFixed(2)).join(', ')})`,
        c.load.ratio,
        '×',
        atLeast(0.8),
      ),
      // What the ratio comes from: the CPU each server spends per request, on cores it shares with DynamoDB Local.
      row(readSection, `${name}: runner CPU per request`, c.load.runner.serverCpuMsPerRequest, 'ms'),
      row(readSection, `${name}: ceiling CPU per request, in the same turns`, c.load.ceiling.serverCpuMsPerRequest, 'ms'),
    ];
  });

  const loginSection = 'POST /login, sequential, one connection each (bcrypt cost 10)';
  const loginRows = (name: string, l: SeriesFigures): Row[] => [
    row(loginSection, `${name}: latency p50`, l.p50Ms, 'ms'),
    row(loginSection, `${name}: latency p99`, l.p99Ms, 'ms'),
    row(loginSection, `${name}: bcrypt compares per login`, l.bcryptComparesEach, '', exactly(1)),
    row(loginSection, `${name}: DynamoDB calls per login`, l.dynamoDbCallsEach, ''),
  ];
  const verifySection = 'API key verification in process (authenticate(), runner table)';
  const verifyRows = (name: string, v: SeriesFigures, bcrypt: number, calls?: number): Row[] => [
    row(verifySection, `${name}: time p50`, v.p50Ms, 'ms'),
    row(verifySection, `${name}: time p99`, v.p99Ms, 'ms'),
    row(verifySection, `${name}: bcrypt compares per verification`, v.bcryptComparesEach, '', exactly(bcrypt)),
    row(
      verifySection,
      `${name}: DynamoDB calls per verification`,
      v.dynamoDbCallsEach,
      '',
      calls === undefined ? undefined : atMost(calls),
    ),
  ];

  const g = f.verification.guessing;
  const { perPrefix } = failedAuthenticationPolicy;
  const guessSection = `Guessing: ${g.attempts} wrong secrets with one known key's prefix from one address, then that address's other keys`;
  const guessRows: Row[] = [
    row(guessSection, 'wrong secrets answered 401 (the rest 429)', g.answered['401'] ?? 0, '', atMost(perPrefix.limit)),
    row(guessSection, 'bcrypt compares for all of them', g.bcryptCompares, '', atMost(perPrefix.limit)),
    row(guessSection, 'the known key, verified before: status', g.knownKeyStatus, '', exactly(200)),
    row(guessSection, "a neighbour's key never verified before: status", g.neighbourKeyStatus, '', exactly(200)),
  ];

  const listSection = 'Page one of GET /api-keys?per_page=25 over HTTP, sequential, alternating sizes';
  const listRows = (section: string, what: string, l: ListFigures['small'], p99 = false): Row[] => [
    row(section, `${l.items.toLocaleString('en-US')} ${what}: latency p50`, l.p50Ms, 'ms'),
    ...(p99 ? [row(section, `${l.items.toLocaleString('en-US')} ${what}: latency p99`, l.p99Ms, 'ms')] : []),
    row(section, `${l.items.toLocaleString('en-US')} ${what}: DynamoDB calls per request`, l.dynamoDbCallsEach, ''),
  ];
  const listRatio = (section: string, what: string, l: ListFigures, limit: number | null = 1.5) =>
    row(
      section,
      `${l.large.items.toLocaleString('en-US')} / ${l.small.items.toLocaleString('en-US')} ${what}, p50`,
      l.ratio,
      '×',
      limit === null ? undefined : atMost(limit),
    );
  const listBlock = (section: string, what: string, l: ListFigures, limit?: number | null) => [
    ...listRows(section, what, l.small),
    ...listRows(section, what, l.large),
    listRatio(section, what, l, limit),
  ];

  const { rare, common } = f.posts;
  const postListSection = 'Page one of GET /posts?per_page=25 over HTTP, sequential, alternating sizes';
  const totals = (t: [number, number]) => (t[0] === t[1] ? `${t[0]} at both sizes` : `${t[0]} and ${t[1]}`);
  // Every answer's meta.total is checked against what the seed put in: a wrong count fails the bench.
  const rareSection = `GET /posts?search=${rare.word}&per_page=25, a word that the same posts hold at both sizes (meta.total ${totals(rare.totals)})`;
  const commonSection =
    `GET /posts?search=${common.word}&per_page=25, a word in one post of ten (meta.total ${totals(common.totals)}):` +
    ' a search reads every match, so its cost grows with them, not with the posts';
  const b = f.postBatch;
  const batchSection =
    `POST /resources/batch of ${b.operations} post creates, against ${b.operations} single POST /posts in a row,` +
    ` in ${b.batch.samples} turns, each in a fresh enterprise workspace`;
  const postRows: Row[] = [
    ...listBlock(postListSection, 'posts', f.posts.pageOne),
    ...listBlock(rareSection, 'posts', rare, 2),
    ...listBlock(commonSection, 'posts', common, null),
    row(batchSection, `batch of ${b.operations}: latency p50`, b.batch.p50Ms, 'ms'),
    row(batchSection, `batch of ${b.operations}: latency p99 (of ${b.batch.samples}: the slowest)`, b.batch.p99Ms, 'ms'),
    row(batchSection, `${b.operations} single POST /posts in a row: latency p50`, b.singlesInARow.p50Ms, 'ms'),
    row(batchSection, 'batch: latency per operation, p50', b.batch.p50Ms / b.operations, 'ms'),
    row(batchSection, `single POST /posts: latency p50 (of ${b.single.samples})`, b.single.p50Ms, 'ms'),
    row(batchSection, 'single POST /posts: latency p99', b.single.p99Ms, 'ms'),
    row(batchSection, `batch / ${b.operations} singles in a row, p50`, b.batch.p50Ms / b.singlesInARow.p50Ms, '×'),
    // Each post's event is fanned out after the answer; its calls are counted with the create.
    row(batchSection, 'batch: DynamoDB calls per post (its event fan-out included)', sum(b.batchCallsEach), ''),
    row(batchSection, 'single: DynamoDB calls per post (its event fan-out included)', sum(b.singleCallsEach), ''),
  ];

  const { fanOut, throughput, deliveryList } = f.webhooks;
  const fanOutSection = `Webhooks: one workspace.updated (PATCH through the local runner) to ${fanOut.endpoints} endpoints on a local receiver`;
  const throughputSection = `Webhooks: ${throughput.deliveries.toLocaleString('en-US')} deliveries by attemptDelivery, ${throughput.concurrency} at a time, to the local receiver`;
  const m = throughput.memory;
  const webhookRows: Row[] = [
    row(fanOutSection, 'PATCH answered', fanOut.mutationMs, 'ms'),
    row(fanOutSection, `mutation until the receiver had all ${fanOut.endpoints}`, fanOut.msToReceived, 'ms'),
    row(fanOutSection, `mutation until all ${fanOut.endpoints} recorded success`, fanOut.msToRecorded, 'ms'),
    row(fanOutSection, 'DynamoDB calls per delivery (PATCH, fan-out and attempts together)', fanOut.dynamoDbCalls / fanOut.endpoints, ''),
    row(throughputSection, 'deliveries per second', throughput.deliveriesPerSecond, '/s'),
    row(throughputSection, 'DB-bound ceiling (the same DynamoDB calls replayed), per second', throughput.ceilingPerSecond, '/s'),
    row(throughputSection, 'deliveries / DB-bound ceiling', throughput.ratio, '×', atLeast(0.7)),
    row(throughputSection, 'DynamoDB calls per attempt', throughput.dynamoDbCallsEach, ''),
    // Both run in this one Node process: its CPU per delivery explains the ratio, as the server CPU rows do for the runner.
    row(throughputSection, 'this process CPU per delivery (receiver included)', throughput.attemptCpuMsEach, 'ms'),
    row(throughputSection, 'this process CPU per replayed delivery', throughput.replayCpuMsEach, 'ms'),
    row(throughputSection, 'bench process peak RSS', m.peakRssMiB, 'MiB'),
    row(throughputSection, 'bench process peak RSS over its start', m.peakRssMiB - m.rssAtStartMiB, 'MiB'),
    row(throughputSection, 'peak heap used over its start', m.peakHeapUsedMiB - m.heapUsedAtStartMiB, 'MiB'),
    row(throughputSection, 'heap growth after GC', m.heapGrowthAfterGcMiB, 'MiB'),
  ];
  const deliveryListSection = 'Page one of GET /webhooks/{id}/deliveries?per_page=25 over HTTP, sequential, alternating sizes';

  const meterSection = 'Usage meter, one enterprise API key (allowance 200,000 a minute), simulated for 3 minutes';
  const meterRows = f.meter.flatMap((m): Row[] => {
    const offered = `${m.offeredPerMinute.toLocaleString('en-US')} offered a minute`;
    // Offered beyond the allowance, the first half of each minute admits at the offered pace: context, not a target.
    const withinEdge = m.offeredPerMinute <= m.allowance;
    return [
      row(meterSection, `${offered}: admitted / min(offered, allowance)`, m.admittedRatio, '×', {
        target: 'within 5%',
        check: () => Math.abs(m.admittedRatio - 1) <= 0.05,
      }),
      row(
        meterSection,
        `${offered}: writes to the busiest item in its busiest second (${m.shards} shards)`,
        m.maxWritesPerItemSecond,
        '',
        withinEdge ? atMost(1000) : undefined,
      ),
    ];
  });

  const idempotencySection = 'POST /workspaces with an Idempotency-Key on the local runner, sequential';
  const idempotencyRows: Row[] = (['first', 'replay'] as const).flatMap((kind) => [
    row(idempotencySection, `${kind}: latency p50`, f.idempotency[kind].p50Ms, 'ms'),
    row(idempotencySection, `${kind}: latency p99`, f.idempotency[kind].p99Ms, 'ms'),
    row(idempotencySection, `${kind}: DynamoDB calls per request`, f.idempotency[kind].dynamoDbCallsEach, ''),
  ]);

  const bundleSection = 'Lambda bundles (bin/build.ts buildAll; AWS SDK bundled except in the authorizer)';
  const startSection = 'npm start (node --import tsx bin/local.ts, DATA_DIR=memory)';
  return [
    ...loadRows('bare node:http baseline', f.baseline),
    ...loadRows('DB-bound ceiling (TransactGet + meter UpdateItem + GetItem)', f.ceiling),
    ...Object.entries(f.credentials).flatMap(([key, c]) =>
      loadRows(`local runner, ${credentialNames[key as keyof typeof credentialNames]}`, c.load.runner),
    ),
    ...credentialRows,
    ...loginRows(`right password (${f.logins.ok.samples})`, f.logins.ok),
    ...loginRows(`unknown email (${f.logins.unknownEmail.samples})`, f.logins.unknownEmail),
    ...loginRows(`wrong password (${f.logins.wrongPassword.samples})`, f.logins.wrongPassword),
    row(loginSection, 'unknown email / right password, p50', f.logins.unknownEmail.p50Ms / f.logins.ok.p50Ms, '×'),
    row(loginSection, 'wrong password / right password, p50', f.logins.wrongPassword.p50Ms / f.logins.ok.p50Ms, '×'),
    ...verifyRows(`cold, a new key (${f.verification.cold.samples})`, f.verification.cold, 1),
    ...verifyRows(`warm (${f.verification.warm.samples})`, f.verification.warm, 0, 1),
    ...guessRows,
    ...listBlock(listSection, 'keys', f.lists),
    ...postRows,
    ...meterRows,
    ...idempotencyRows,
    ...webhookRows,
    ...listRows(deliveryListSection, 'deliveries', deliveryList.small, true),
    ...listRows(deliveryListSection, 'deliveries', deliveryList.large, true),
    listRatio(deliveryListSection, 'deliveries', deliveryList),
    ...pixelRows(f.pixel),
    ...f.bundles.flatMap((b) => [
      row(bundleSection, `${b.name}: size`, b.bytes / 1024, 'KiB', atMost(b.name === 'authorizer' ? 300 : 1024, 'KiB')),
      row(bundleSection, `${b.name}: module init, median of ${b.initRunsMs.length}`, b.initMedianMs, 'ms', atMost(150, 'ms')),
    ]),
    row(bundleSection, `(context) @aws-sdk client-dynamodb + lib-dynamodb import alone`, f.sdkImport.medianMs, 'ms'),
    row(startSection, 'time to healthy', f.startup.msToHealthy, 'ms', atMost(15_000, 'ms')),
    row(startSection, 'its processes alive 5 s after SIGTERM', f.startup.leftAfterSigterm.length, '', atMost(0)),
    row('Teardown', "bench's own DynamoDB Local left running", f.ourStoreLeft.length, '', atMost(0)),
  ];
}
