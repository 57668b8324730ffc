/**
 * At most `slots` runs at a time; the others wait their turn, first come first served.
 * bcryptjs computes on the event loop in slices: unlimited, fifty wrong keys at once share
 * the CPU with every other request of the process and each takes fifty times as long.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) await new Promise<void>((start) => this.waiting.push(start));
    else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
