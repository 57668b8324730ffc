import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface PhaseResult {
  seconds: number;
  /** Every response, whatever its status. */
  responses: number;
  /** 2xx responses: the only ones counted in req/s and latency. */
  ok: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadResult {
  warmup: PhaseResult;
  measured: PhaseResult;
}

/** Non-2xx answers, socket errors and timeouts: a server answering 401s or 500s looks fast but measures nothing. */
export const failuresOf = (phase: PhaseResult) => phase.responses - phase.ok + phase.errors + phase.timeouts;

const clientScript = fileURLToPath(new URL('./load-client.ts', import.meta.url));

/**
 * Loads `url` from a separate process (see load-client.ts) and answers its figures. Only
 * loopback targets are accepted, and the child is killed if it overruns its phases.
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { hostname } = new URL(options.url);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') throw new Error(`refusing to load a non-loopback target: ${options.url}`);
  const limitMs = (options.warmupSeconds + options.seconds + 20) * 1000;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', clientScript, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const overrun = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      clearTimeout(overrun);
      if (code !== 0) return fail(new Error(`load generator for ${options.url} ended with ${signal ?? `code ${code}`}`));
      done(JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult);
    });
  });
}

/** A load of a server in the bench's own process, with that process's CPU time per request. */
export type ServerLoad = LoadResult & { serverCpuMsPerRequest: number };
