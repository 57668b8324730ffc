import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { freePort } from '#lib/local/dynamodb-local';
import { expectMatchesContract } from '../support/openapi-validator.ts';

/** `npm start` as a user runs it: its own DynamoDB Local, a printed key, /health, a clean stop. */
describe('npm start', () => {
  let child: ChildProcessWithoutNullStreams;
  let output = '';

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints the base URL and bootstrap credentials, serves them, and stops DynamoDB Local on SIGTERM', async () => {
    const port = await freePort();
    const bootstrapKey = 'sk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const { DYNAMODB_ENDPOINT: _shared, ...env } = process.env;
    child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
      env: { ...env, DATA_DIR: 'memory', PORT: String(port), BOOTSTRAP_API_KEY: bootstrapKey },
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));

    const deadline = Date.now() + 30_000;
    while (!output.includes('API key:') && Date.now() < deadline && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output).toContain(`listening on http://127.0.0.1:${port}/api/v1`);
    expect(output).toContain(`API key:   ${bootstrapKey}`);
    expect(output).toMatch(/password:\s+\S{8,}/);

    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    const listedUrl = `http://127.0.0.1:${port}/api/v1/workspaces`;
    const listed = await fetch(listedUrl, { headers: { Authorization: `Bearer ${bootstrapKey}` } });
    const workspaces = (await listed.json()) as { data: { tier: string }[] };
    expectMatchesContract('GET', listedUrl, listed, workspaces);
    expect(listed.status).toBe(200);
    expect(workspaces.data[0]!.tier).toBe('enterprise');

    const dynamoEndpoint = /DynamoDB Local at (http:\/\/[\d.:]+)/.exec(output)![1]!;
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(dynamoEndpoint)).rejects.toThrow();
  });
});
