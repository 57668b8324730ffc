/**
 * The pixel load generator: each connection binds its own loopback address, so that the runner
 * sees it as a client of its own and none passes the 300-a-minute limit per address.
 */
import { Agent } from 'node:http';
import { type PixelLoadOptions, type PixelPhase, post } from './pixel-load.ts';
import { percentile } from './stats.ts';

const options = JSON.parse(process.argv[2]!) as PixelLoadOptions;
const target = new URL(options.url);

const agents = Array.from({ length: options.connections }, (_, c) => {
  const localAddress = `127.${options.addressOctet}.${c >> 8}.${(c & 255) + 1}`;
  return new Agent({ keepAlive: true, maxSockets: 1, localAddress });
});

async function phase(requests: number): Promise<PixelPhase> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    agents.map(async (agent, c) => {
      for (let i = 0; i < requests; i++) {
        const body = options.bodies[(c * 7919 + i) % options.bodies.length]!;
        try {
          const { status, ms } = await post(agent, target, options.headers, body);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status >= 200 && status < 300) latencies.push(ms);
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    seconds,
    responses: Object.values(statuses).reduce((a, b) => a + b, 0),
    ok: latencies.length,
    statuses,
    errors,
    requestsPerSecond: latencies.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

const warmup = await phase(options.warmupRequests);
const measured = await phase(options.requests);
for (const agent of agents) agent.destroy();
process.stdout.write(`${JSON.stringify({ warmup, measured })}\n`);
