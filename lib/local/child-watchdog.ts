import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Ends `child` however this process dies, SIGKILL included: a small shell blocks reading a pipe
 * from us, which the kernel closes when we exit (Node has no portable parent-death signal).
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
