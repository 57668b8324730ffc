/** Things counted as they arrive, and waits for the moment the count reaches a number. */
export function arrivals() {
  let count = 0;
  const waiters: Array<{ count: number; done: (at: number) => void }> = [];
  return {
    count: () => count,
    /** Counts one arrival, now. */
    add(): void {
      count++;
      const at = performance.now();
      for (const waiter of waiters.filter((w) => w.count <= count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done(at);
      }
    },
    /** Resolves with the time (performance.now()) at which the count reached `wanted`; rejects after `timeoutMs`. */
    waitFor(wanted: number, what: string, timeoutMs = 60_000): Promise<number> {
      if (count >= wanted) return Promise.resolve(performance.now());
      return new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`${what}: ${count} of ${wanted} after ${timeoutMs / 1000} s`)), timeoutMs);
        waiters.push({
          count: wanted,
          done: (at) => {
            clearTimeout(timer);
            done(at);
          },
        });
      });
    },
  };
}
