import { spawn } from 'node:child_process';
import { type Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

export interface PixelLoadOptions {
  url: string;
  headers: Record<string, string>;
  /** Request bodies, taken in turn (each connection from its own place among them). */
  bodies: string[];
  connections: number;
  /** Connection c binds 127.{addressOctet}.{c >> 8}.{(c & 255) + 1}: a new octet per load gives new client addresses. */
  addressOctet: number;
  /** Per connection, so per address: warm-up + requests must stay within the track limit. */
  warmupRequests: number;
  requests: number;
}

export interface PixelPhase {
  seconds: number;
  responses: number;
  ok: number;
  statuses: Record<string, number>;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface PixelLoadResult {
  warmup: PixelPhase;
  measured: PixelPhase;
}

const clientScript = fileURLToPath(new URL('./pixel-load-client.ts', import.meta.url));

/** A fixed number of requests over connections bound to their own loopback addresses (pixel-load-client.ts), from a child process. */
export function runPixelLoad(options: PixelLoadOptions): Promise<PixelLoadResult> {
  const { hostname } = new URL(options.url);
  if (hostname !== '127.0.0.1') throw new Error(`refusing to load a non-loopback target: ${options.url}`);
  if (options.addressOctet < 1 || options.addressOctet > 255) throw new Error(`address octet ${options.addressOctet} is not 1 to 255`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', clientScript, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const overrun = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      clearTimeout(overrun);
      if (code !== 0) return fail(new Error(`pixel load generator ended with ${signal ?? `code ${code}`}`));
      done(JSON.parse(stdout.trim().split('\n').at(-1)!) as PixelLoadResult);
    });
  });
}

/** One POST of `body` to `url` on `agent` (whose socket has its local address): its status, answer and time in ms. */
export function post(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => done({ status: res.statusCode ?? 0, text, ms: performance.now() - started }));
      },
    );
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', fail);
    req.end(body);
  });
}
