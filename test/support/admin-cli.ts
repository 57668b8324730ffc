import { spawn } from 'node:child_process';
import { adminCli } from '#lib/admin/cli';

export interface AdminRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The admin CLI against `tableName` of the shared DynamoDB Local: its command line run
 * in-process, its lines captured, or, `asProcess`, `node --import tsx bin/admin.ts ...` as
 * `npm run admin -- ...` runs it (its entry point, output streams and exit status).
 */
export async function runAdmin(
  tableName: string,
  args: string[],
  env: Record<string, string> = {},
  { asProcess = false } = {},
): Promise<AdminRun> {
  const environment = { ...process.env, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT!, TABLE_NAME: tableName, ...env };
  if (asProcess) return spawned(args, environment);
  const lines = { out: [] as string[], err: [] as string[] };
  const status = await adminCli(args, { env: environment, out: (line) => lines.out.push(line), err: (line) => lines.err.push(line) });
  const text = (written: string[]) => written.map((line) => `${line}\n`).join('');
  return { status, stdout: text(lines.out), stderr: text(lines.err) };
}

function spawned(args: string[], env: NodeJS.ProcessEnv): Promise<AdminRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', fail);
    child.once('close', (status) => done({ status, stdout, stderr }));
  });
}
