import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Ends `child` when this process dies, however it dies (SIGKILL included, when no handler
 * of ours runs): a small shell holds a pipe from us and blocks reading it; the kernel
 * closes the pipe when we exit, the read returns, and the shell kills the child. Linux
 * has no portable parent-death signal for Node, and DynamoDB Local never reads its stdin.
 */
export function killWithThisProcess(child: ChildProcess): { release(): void } {
  const watchdog = spawn('sh', ['-c', `cat >/dev/null; kill -TERM ${child.pid} 2>/dev/null`], {
    stdio: ['pipe', 'ignore', 'ignore'],
    // Its own process group: a Ctrl-C to ours must not end it before it has done its job.
    detached: true,
  });
  // Neither the watchdog nor its pipe may keep this process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  return {
    /** After a normal stop: the child is gone, so the watchdog goes without killing anything. */
    release: () => {
      if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
    },
  };
}
