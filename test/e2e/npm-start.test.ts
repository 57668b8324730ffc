import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { freePort } from '#lib/local/dynamodb-local';
import { descendantsOf, isAlive, waitUntilGone } from '../../bench/processes.ts';
import { expectMatchesContract } from '../support/openapi-validator.ts';

const bootstrapKey = 'sk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const started: ChildProcessWithoutNullStreams[] = [];
/** A start on a busy 2-core machine has taken 27 s, beside jest's other files: each test that starts one gets time for it. */
const startTimeoutMs = 120_000;

interface Runner {
  child: ChildProcessWithoutNullStreams;
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `command` (the runner, directly or through npm) on a free port and waits for its credentials. */
async function start(command: string, args: string[], env: Record<string, string> = {}): Promise<Runner> {
  const port = await freePort();
  const { DYNAMODB_ENDPOINT: _shared, TABLE_NAME: _table, ...inherited } = process.env;
  const child = spawn(command, args, {
    env: { ...inherited, DATA_DIR: 'memory', PORT: String(port), BOOTSTRAP_API_KEY: bootstrapKey, ...env },
  });
  started.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const deadline = Date.now() + startTimeoutMs - 30_000;
  while (!output.includes('API key:') && Date.now() < deadline && child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(output).toContain(`API key:   ${bootstrapKey}`);
  return { child, port, output: () => output, exited };
}

/**
 * A banner's lines by their labels: the words before a value (a colon, a parenthesis),
 * up to the request log, so that the README's sample and a real start compare.
 */
const bannerLabels = (banner: string) =>
  banner
    .slice(0, banner.indexOf('Requests ('))
    .split('\n')
    .map((line) => line.split(/[:(]/)[0]!.trim().split(/\s+/).slice(0, 3).join(' '))
    .filter(Boolean);

const isJava = (pid: number) => spawnSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim() === 'java';

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `npm start` as a user runs it: its own DynamoDB Local, a printed key, /health, a clean stop. */
describe('npm start', () => {
  it('refuses bad settings at once, naming every bad variable of every part in one message', () => {
    const { DYNAMODB_ENDPOINT: _shared, TABLE_NAME: _table, ...inherited } = process.env;
    const run = spawnSync('node', ['--import', 'tsx', 'bin/local.ts'], {
      env: {
        ...inherited,
        DATA_DIR: 'memory',
        PORT: '70000',
        LOG_REQUESTS: 'maybe',
        WEBHOOK_RETRY_SCALE: 'abc',
        WEBHOOK_ALLOW_INSECURE: 'yes',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).not.toBe(0);
    const said = run.stdout + run.stderr;
    for (const variable of ['PORT', 'LOG_REQUESTS', 'WEBHOOK_RETRY_SCALE', 'WEBHOOK_ALLOW_INSECURE']) expect(said).toContain(variable);
    expect(said.match(/invalid configuration/gi)).toHaveLength(1);
  });

  it(
    'prints the base URL, the credentials and a working admin command, serves them, and stops DynamoDB Local on SIGTERM',
    async () => {
      const dynamoDbPort = await freePort();
      const runner = await start(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
        DYNAMODB_PORT: String(dynamoDbPort),
        WEBHOOK_ALLOW_INSECURE: '1',
      });
      const output = runner.output();
      // What it waits for, then the banner, line for line as the README shows it.
      const sample = /```\n(Starting the Tenant API:[\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'))![1]!;
      expect(bannerLabels(output)).toEqual(bannerLabels(sample));
      expect(output).toContain(`docs:     http://127.0.0.1:${runner.port}/api/docs`);
      expect(output).toContain('webhooks: WEBHOOK_ALLOW_INSECURE=1');
      expect(output).toContain(`listening on http://127.0.0.1:${runner.port}/api/v1`);
      expect(output).toMatch(/password:\s+\S{8,}/);
      // DATA_DIR=memory: mail goes to a temporary folder, named in the banner with the base of its links.
      const mail = /mail:\s+(\S+) \(temporary, removed at stop\), links to (\S+);/.exec(output);
      expect(mail?.[2]).toBe(`http://127.0.0.1:${runner.port}`);
      expect(existsSync(mail![1]!)).toBe(true);

      const health = await fetch(`http://127.0.0.1:${runner.port}/health`);
      expect(health.status).toBe(200);
      const listedUrl = `http://127.0.0.1:${runner.port}/api/v1/workspaces`;
      const listed = await fetch(listedUrl, { headers: { Authorization: `Bearer ${bootstrapKey}` } });
      const workspaces = (await listed.json()) as { data: { tier: string }[] };
      expectMatchesContract('GET', listedUrl, listed, workspaces);
      expect(listed.status).toBe(200);
      expect(workspaces.data[0]!.tier).toBe('enterprise');
      // The request line reaches our pipe a moment after the answer.
      for (let i = 0; i < 50 && !/GET \/api\/v1\/workspaces 200 \d+ ms/.test(runner.output()); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(runner.output()).toMatch(/GET \/api\/v1\/workspaces 200 \d+ ms/);

      // The printed admin command, pasted as printed.
      const admin = /admin:\s+(DYNAMODB_ENDPOINT=(\S+) TABLE_NAME=(\S+)) npm run admin -- <command>/.exec(output);
      expect(admin?.[2]).toBe(`http://127.0.0.1:${dynamoDbPort}`);
      const { DYNAMODB_ENDPOINT: _shared, TABLE_NAME: _table, ...inherited } = process.env;
      const prune = spawnSync(process.execPath, ['--import', 'tsx', 'bin/admin.ts', 'prune'], {
        env: { ...inherited, DYNAMODB_ENDPOINT: admin![2], TABLE_NAME: admin![3] },
        encoding: 'utf8',
      });
      expect(prune.stderr).toContain(`table tenant-api-local at http://127.0.0.1:${dynamoDbPort}`);
      expect(prune.status).toBe(0);

      runner.child.kill('SIGTERM');
      expect(await runner.exited).toBe(0);
      await expect(fetch(admin![2]!)).rejects.toThrow();
      expect(existsSync(mail![1]!)).toBe(false);
    },
    startTimeoutMs,
  );

  it(
    'stops everything it started when the npm process the user started is killed',
    async () => {
      const runner = await start('npm', ['start'], { LOG_REQUESTS: '0' });
      const processes = descendantsOf(runner.child.pid!);
      expect(processes.some(isJava)).toBe(true);
      runner.child.kill('SIGTERM');
      await runner.exited;
      expect(await waitUntilGone(processes, 10_000)).toEqual([]);
    },
    startTimeoutMs,
  );

  it(
    'takes DynamoDB Local down even when the runner is killed outright (SIGKILL)',
    async () => {
      const runner = await start(process.execPath, ['--import', 'tsx', 'bin/local.ts'], { LOG_REQUESTS: '0' });
      const java = descendantsOf(runner.child.pid!).filter(isJava);
      expect(java).toHaveLength(1);
      runner.child.kill('SIGKILL');
      await runner.exited;
      expect(await waitUntilGone(java, 10_000)).toEqual([]);
      expect(java.filter(isAlive)).toEqual([]);
    },
    startTimeoutMs,
  );
});
