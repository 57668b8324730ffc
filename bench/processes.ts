import { spawnSync } from 'node:child_process';

/** Pids that `pgrep` finds with these arguments (none when it finds none). */
function pgrep(...args: string[]): number[] {
  const { stdout } = spawnSync('pgrep', args, { encoding: 'utf8' });
  return (stdout ?? '').split('\n').filter(Boolean).map(Number);
}

/** Every process below `pid`, children first. */
export function descendantsOf(pid: number): number[] {
  return pgrep('-P', String(pid)).flatMap((child) => [child, ...descendantsOf(child)]);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until none of `pids` is alive; answers those still alive at the deadline. */
export async function waitUntilGone(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (!alive.length || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** DynamoDB Local processes, all of them or the one listening on `port`. */
export const dynamoDbLocalPids = (port?: number) => pgrep('-f', port === undefined ? 'DynamoDBLocal' : `DynamoDBLocal.*-port ${port}( |$)`);
