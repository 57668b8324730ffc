import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '#lib/local/dynamodb-local';
import { descendantsOf, waitUntilGone } from './processes.ts';

export interface StartupFigures {
  /** From spawn to the first 200 of GET /health; undefined if it never came. */
  msToHealthy?: number;
  /** The runner and what it started (DynamoDB Local), as found while it was healthy. */
  processes: number[];
  /** Of those, the ones still alive after SIGTERM and a grace period (then killed). */
  leftAfterSigterm: number[];
  exitCode: number | null;
}

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * `npm start` as a user runs it, minus npm's own wrapper: `node --import tsx bin/local.ts`
 * on an in-memory store and a free port. Polls /health, then stops it with SIGTERM and
 * checks that it took its DynamoDB Local child down with it.
 */
export async function measureStartToHealthy(timeoutMs = 60_000): Promise<StartupFigures> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: 'memory', PORT: String(port), HOST: '127.0.0.1' };
  // Variables that would point the runner elsewhere or skip its own store start-up.
  for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'BOOTSTRAP_API_KEY', 'BOOTSTRAP_EMAIL', 'BOOTSTRAP_PASSWORD']) delete env[name];
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  let msToHealthy: number | undefined;
  while (child.exitCode === null && performance.now() - started < timeoutMs) {
    const healthy = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) {
      msToHealthy = performance.now() - started;
      break;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  if (msToHealthy === undefined) console.error(`npm start did not become healthy:\n${output}`);

  const processes = [child.pid!, ...descendantsOf(child.pid!)];
  child.kill('SIGTERM');
  const exitCode = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
  const leftAfterSigterm = await waitUntilGone(processes, 5_000);
  // Never leave our own processes behind, even when the runner failed to stop them.
  for (const pid of leftAfterSigterm) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return { msToHealthy, processes, leftAfterSigterm, exitCode };
}
