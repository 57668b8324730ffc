import { spawn } from 'node:child_process';

export interface AdminRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `node --import tsx bin/admin.ts ...`, as `npm run admin -- ...` runs it, against `tableName` of the shared DynamoDB Local. */
export function runAdmin(tableName: string, args: string[], env: Record<string, string> = {}): Promise<AdminRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], {
      env: { ...process.env, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT!, TABLE_NAME: tableName, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', fail);
    child.once('close', (status) => done({ status, stdout, stderr }));
  });
}
