/**
 * The load generator, in a process of its own so that it never shares an event loop with the
 * server it measures; latencies come from each response's hrtime, as autocannon's histogram
 * rounds to whole ms.
 */
import autocannon from 'autocannon';
import type { LoadOptions, PhaseResult } from './load.ts';
import { percentile } from './stats.ts';

async function phase(options: LoadOptions, seconds: number): Promise<PhaseResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((done, fail) => {
    const instance = autocannon(
      { url: options.url, headers: options.headers, connections: options.connections, pipelining: 1, duration: seconds, timeout: 10 },
      (error, result) => (error ? fail(error) : done(result)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    });
  });
  const sorted = Float64Array.from(latencies).sort();
  return {
    seconds: result.duration,
    responses: Object.values(statuses).reduce((a, b) => a + b, 0),
    ok: latencies.length,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    requestsPerSecond: latencies.length / result.duration,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

const options = JSON.parse(process.argv[2]!) as LoadOptions;
const warmup = await phase(options, options.warmupSeconds);
const measured = await phase(options, options.seconds);
process.stdout.write(`${JSON.stringify({ warmup, measured })}\n`);
