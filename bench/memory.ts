import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const MiB = 1024 * 1024;

/**
 * Node's garbage collector, when it can be had: `--expose-gc`, else the same flag set at
 * run time, which V8 honours for contexts made afterwards; undefined if neither works.
 */
function garbageCollector(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

export interface MemoryFigures {
  /** The process's resident set and V8 heap in use, in MiB: when the phase started, and their peaks while it ran. */
  rssAtStartMiB: number;
  peakRssMiB: number;
  heapUsedAtStartMiB: number;
  peakHeapUsedMiB: number;
  /** Heap in use after a full collection, after the phase minus before it; undefined without a collector. */
  heapGrowthAfterGcMiB?: number;
  samples: number;
}

/** Samples process.memoryUsage() every `everyMs` while work runs under `during`, and collects before and after. */
export function memorySampler(everyMs = 20) {
  const gc = garbageCollector();
  gc?.();
  const start = process.memoryUsage();
  let [peakRss, peakHeap, samples] = [start.rss, start.heapUsed, 0];
  const sample = () => {
    const now = process.memoryUsage();
    [peakRss, peakHeap, samples] = [Math.max(peakRss, now.rss), Math.max(peakHeap, now.heapUsed), samples + 1];
  };
  return {
    async during<T>(work: () => Promise<T>): Promise<T> {
      const timer = setInterval(sample, everyMs);
      try {
        return await work();
      } finally {
        clearInterval(timer);
        sample();
      }
    },
    /** The figures; call once whatever the phase held on to has been let go. */
    figures(): MemoryFigures {
      gc?.();
      return {
        rssAtStartMiB: start.rss / MiB,
        peakRssMiB: peakRss / MiB,
        heapUsedAtStartMiB: start.heapUsed / MiB,
        peakHeapUsedMiB: peakHeap / MiB,
        ...(gc ? { heapGrowthAfterGcMiB: (process.memoryUsage().heapUsed - start.heapUsed) / MiB } : {}),
        samples,
      };
    },
  };
}
