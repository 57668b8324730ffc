import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BootstrapResult } from '#core/operations/bootstrap';
import { ensureTable } from '#lib/local/table-setup';
import type { captureDynamoDbCalls, RecordedCall } from './call-recorder.ts';
import { type Counters, type SeriesFigures, tally } from './counters.ts';
import { type PixelLoadOptions, type PixelLoadResult, post, runPixelLoad } from './pixel-load.ts';
import { replay } from './replay.ts';
import { median } from './stats.ts';
import { copyPartitions } from './table-copy.ts';

export interface PixelSettings {
  /** Sequential accepted events over which calls are counted, then as many rejected (a bot's). */
  countedEvents: number;
  connections: number;
  /** Per connection, i.e. per client address: warm-up + requests ≤ 300, the track limit. */
  warmupRequests: number;
  requests: number;
  turns: number;
  /** An untimed turn of the runner first, for a DynamoDB Local not yet warmed by earlier phases. */
  warmTurn?: boolean;
}

/** Sequential events: latency, and DynamoDB calls each, writes and reads apart. */
export interface PixelSeries extends SeriesFigures {
  writesEach: number;
  readsEach: number;
}

export type PixelServerLoad = PixelLoadResult & { serverCpuMsPerRequest: number };

export interface PixelFigures {
  host: string;
  accepted: PixelSeries;
  rejected: PixelSeries;
  /** The DynamoDB calls of one accepted event, in order, as replayed by the ceiling. */
  callsOfOneEvent: string[];
  load: {
    connections: number;
    /** Distinct client addresses over all turns (one per connection per turn). */
    addresses: number;
    requestsPerAddress: number;
    runner: PixelServerLoad[];
    ceiling: PixelServerLoad[];
    /** Calls captured during the runner's turns that no event makes (its background work), left out of the replay. */
    notReplayed: Record<string, number>;
    ratios: number[];
    ratio: number;
  };
}

export const host = 'bench.example.com';
const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const bot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const headers = (userAgent: string) => ({ 'Content-Type': 'text/plain', Origin: `https://${host}`, 'User-Agent': userAgent });
const pages = ['/', '/pricing', '/docs', '/docs/start', '/blog', '/blog/launch', '/about', '/contact', '/careers', '/changelog'];
/** Pageviews of varied pages, half of them referred by another site. */
const bodies = pages.flatMap((path) => [
  JSON.stringify({ event: 'pageview', url: `https://${host}${path}` }),
  JSON.stringify({ event: 'pageview', url: `https://${host}${path}?utm_source=x`, referrer: 'https://news.example.org/' }),
]);

const isWrite = (command: string) => /^(PutItem|UpdateItem|DeleteItem|TransactWriteItems|BatchWriteItem)/.test(command);
const isRead = (command: string) => /^(GetItem|Query|Scan|TransactGetItems|BatchGetItem)/.test(command);
const sumOf = (byCommand: Record<string, number>, pick: (command: string) => boolean) =>
  Object.entries(byCommand).reduce((total, [command, n]) => total + (pick(command) ? n : 0), 0);
const withWrites = (f: SeriesFigures): PixelSeries => ({
  ...f,
  writesEach: sumOf(f.dynamoDbCallsEachByCommand, isWrite),
  readsEach: sumOf(f.dynamoDbCallsEachByCommand, isRead),
});

/**
 * What a recorded call is for (rate window, site, visitor's day, event, rollup), told apart
 * from the runner's background work, so that each event's calls can be counted.
 */
export function kindOf(call: RecordedCall): string {
  const { input } = call;
  const key = JSON.stringify(input.Key ?? input.Item ?? {});
  switch (call.command) {
    case 'UpdateItemCommand':
      if (key.includes('pixel:')) return 'window UpdateItem';
      return (input.ExpressionAttributeNames as Record<string, string> | undefined)?.['#total'] ? 'rollup UpdateItem' : 'other UpdateItem';
    case 'GetItemCommand':
      return key.includes(host) ? 'site GetItem' : 'other GetItem';
    case 'QueryCommand':
      return input.ConsistentRead === true ? 'visitor Query (consistent)' : 'other Query';
    case 'PutItemCommand':
      return key.includes(host) ? 'event PutItem' : 'other PutItem';
    default:
      return call.command;
  }
}

/**
 * Concurrent events' calls, captured interleaved, dealt out again as events (the i-th of each
 * kind to the i-th event), so that the ceiling replays each call exactly once.
 */
export function dealtAsEvents(
  calls: readonly RecordedCall[],
  template: readonly string[],
): { events: RecordedCall[][]; others: Record<string, number> } {
  const byKind = new Map<string, RecordedCall[]>();
  for (const call of calls) {
    const kind = kindOf(call);
    byKind
      .set(kind, byKind.get(kind) ?? [])
      .get(kind)!
      .push(call);
  }
  const events = (byKind.get(template[0]!) ?? []).length;
  const perKind = template.reduce((n, kind) => n.set(kind, (n.get(kind) ?? 0) + 1), new Map<string, number>());
  for (const [kind, n] of perKind)
    if ((byKind.get(kind)?.length ?? 0) !== events * n)
      throw new Error(`captured ${byKind.get(kind)?.length ?? 0} ${kind}, not ${events * n} (${events} events)`);
  // Kinds no event makes (the runner's own background work meanwhile) are not replayed, only counted.
  const others = Object.fromEntries([...byKind].filter(([kind]) => !perKind.has(kind)).map(([kind, c]) => [kind, c.length]));
  const taken = new Map<string, number>();
  const dealt = Array.from({ length: events }, () =>
    template.map((kind) => {
      const i = taken.get(kind) ?? 0;
      taken.set(kind, i + 1);
      return byKind.get(kind)![i]!;
    }),
  );
  return { events: dealt, others };
}

/** A bare server that answers each POST, once its body is read, by replaying the next event's calls on `table`. */
async function startReplayServer(client: DynamoDBDocumentClient, table: string, events: () => RecordedCall[][]) {
  let next = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.once('end', async () => {
      try {
        const calls = events()[next++];
        if (!calls) throw new Error('no recorded event left to replay');
        await replay(client, calls, table);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"tracked":true}');
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    reset: () => (next = 0),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** Waits until no DynamoDB call has been counted for 300 ms (at most 10 s). */
async function untilQuiet(counters: Counters): Promise<void> {
  const deadline = Date.now() + 10_000;
  let before = -1;
  while (Date.now() < deadline && counters.calls.total() !== before) {
    before = counters.calls.total();
    await new Promise((done) => setTimeout(done, 300));
  }
}

/**
 * POST /pixel/track on the local runner: what an accepted and a rejected event cost, then
 * throughput over per-address connections against a bare server replaying the same calls (the
 * ceiling).
 */
export async function measurePixel(
  runner: { baseUrl: string },
  bootstrap: BootstrapResult,
  counters: Counters,
  capture: ReturnType<typeof captureDynamoDbCalls>,
  store: { client: DynamoDBDocumentClient; table: string },
  settings: PixelSettings,
  step: (what: string) => void,
): Promise<PixelFigures> {
  if (settings.warmupRequests + settings.requests > 300) throw new Error('more than 300 requests per address: the runner would answer 429');
  const patch = await fetch(`${runner.baseUrl}/workspaces/${bootstrap.workspaceId}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${bootstrap.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ settings: { pixel: { enabled: true, domains: [host] } } }),
  });
  if (patch.status !== 200) throw new Error(`PATCH settings.pixel answered ${patch.status}: ${await patch.text()}`);
  // The PATCH's workspace.updated is fanned out after its answer: its calls must not be counted with the first event.
  await untilQuiet(counters);

  const url = new URL(`${runner.baseUrl}/pixel/track`);
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.1.0.1' });
  const track = async (userAgent: string, body: string, tracked: boolean) => {
    const res = await post(agent, url, headers(userAgent), body);
    if (res.status !== 200 || (JSON.parse(res.text) as { tracked?: boolean }).tracked !== tracked)
      throw new Error(`POST /pixel/track answered ${res.status}: ${res.text} (expected tracked: ${tracked})`);
  };
  step(`pixel: ${settings.countedEvents} accepted pageviews, then ${settings.countedEvents} of a bot, sequential, from 127.1.0.1`);
  const [accepted, rejected] = [tally(counters), tally(counters)];
  for (let i = 0; i < settings.countedEvents; i++) await accepted.time(() => track(browser, bodies[i % bodies.length]!, true));
  for (let i = 0; i < settings.countedEvents; i++) await rejected.time(() => track(bot, bodies[i % bodies.length]!, false));
  const oneEvent = await capture.during(() => track(browser, bodies[0]!, true));
  agent.destroy();
  const template = oneEvent.map(kindOf);

  // The ceiling's table: the site's item as the runner reads it; events, windows and rollups are made by the replays.
  const copy = `${store.table}-pixel-ceiling`;
  await ensureTable(store.client, copy);
  const site = oneEvent.find((call) => call.command === 'GetItemCommand')?.input.Key as { pk?: unknown } | undefined;
  if (!site?.pk) throw new Error(`no GetItem of the site among ${template.join(', ')}`);
  await copyPartitions(store.client, store.table, copy, [String(site.pk)]);

  let events: RecordedCall[][] = [];
  const ceilingServer = await startReplayServer(store.client, copy, () => events);
  const { connections, warmupRequests, requests, turns } = settings;
  const loadOf = async (target: string, addressOctet: number): Promise<PixelServerLoad> => {
    const options: PixelLoadOptions = {
      url: target,
      headers: headers(browser),
      bodies,
      connections,
      addressOctet,
      warmupRequests,
      requests,
    };
    const cpuBefore = process.cpuUsage();
    const result = await runPixelLoad(options);
    const cpu = process.cpuUsage(cpuBefore);
    return { ...result, serverCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / (result.warmup.responses + result.measured.responses) };
  };
  const notReplayed: Record<string, number> = {};
  const runnerTurns: PixelServerLoad[] = [];
  const ceilingTurns: PixelServerLoad[] = [];
  try {
    if (settings.warmTurn) {
      step(`pixel: an untimed turn of the runner to warm DynamoDB Local, from 127.9.0.1–${connections}`);
      await capture.during(() => loadOf(url.href, 9));
    }
    for (let turn = 0; turn < turns; turn++) {
      step(
        `pixel: turn ${turn + 1} of ${turns}, ${connections} connections from 127.${10 + turn}.0.1–${connections}, ${warmupRequests} + ${requests} requests each, runner then ceiling`,
      );
      let load: PixelServerLoad | undefined;
      const calls = await capture.during(async () => (load = await loadOf(url.href, 10 + turn)));
      runnerTurns.push(load!);
      const dealt = dealtAsEvents(calls, template);
      events = dealt.events;
      for (const [kind, n] of Object.entries(dealt.others)) notReplayed[kind] = (notReplayed[kind] ?? 0) + n;
      ceilingServer.reset();
      ceilingTurns.push(await loadOf(ceilingServer.url, 10 + turn));
      events = [];
    }
  } finally {
    await ceilingServer.stop();
  }
  const ratios = runnerTurns.map((r, i) => r.measured.requestsPerSecond / ceilingTurns[i]!.measured.requestsPerSecond);
  return {
    host,
    accepted: withWrites(accepted.figures()),
    rejected: withWrites(rejected.figures()),
    callsOfOneEvent: template,
    load: {
      connections,
      addresses: connections * turns,
      requestsPerAddress: warmupRequests + requests,
      runner: runnerTurns,
      ceiling: ceilingTurns,
      notReplayed,
      ratios,
      ratio: median(ratios),
    },
  };
}
