import type { LoadOptions, PhaseResult, ServerLoad } from './load.ts';
import { median } from './stats.ts';

/** One server's turns, and the runner's req/s over the ceiling's in each pair of turns. */
export interface SideBySide {
  runner: ServerLoad;
  ceiling: ServerLoad;
  /** Runner / ceiling req/s, turn by turn. */
  ratios: number[];
  /** Their median: the figure the ≥ 0.8 target is held to. */
  ratio: number;
}

/** The measured phases of several turns as one: totals summed, rates over the whole time, latencies the turns' medians. */
function merged(turns: readonly ServerLoad[]): ServerLoad {
  const phaseOf = (phases: PhaseResult[]): PhaseResult => {
    const sum = (pick: (p: PhaseResult) => number) => phases.reduce((total, p) => total + pick(p), 0);
    const statuses: Record<string, number> = {};
    for (const p of phases) for (const [status, n] of Object.entries(p.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    return {
      seconds: sum((p) => p.seconds),
      responses: sum((p) => p.responses),
      ok: sum((p) => p.ok),
      statuses,
      errors: sum((p) => p.errors),
      timeouts: sum((p) => p.timeouts),
      requestsPerSecond: sum((p) => p.ok) / sum((p) => p.seconds),
      p50Ms: median(phases.map((p) => p.p50Ms)),
      p99Ms: median(phases.map((p) => p.p99Ms)),
    };
  };
  const requests = turns.reduce((total, t) => total + t.warmup.responses + t.measured.responses, 0);
  const cpuMs = turns.reduce((total, t) => total + t.serverCpuMsPerRequest * (t.warmup.responses + t.measured.responses), 0);
  return {
    warmup: phaseOf(turns.map((t) => t.warmup)),
    measured: phaseOf(turns.map((t) => t.measured)),
    serverCpuMsPerRequest: cpuMs / requests,
  };
}

/**
 * The runner and the DB-bound ceiling loaded in turns (ceiling, runner, ceiling, runner …),
 * `turns` times each, so that the machine's drift and DynamoDB Local's own warming weigh on
 * both alike: a ratio of loads taken minutes apart measures the machine as much as the code.
 */
export async function sideBySide(
  load: (url: string, extra: Partial<LoadOptions>) => Promise<ServerLoad>,
  runner: { url: string; headers: Record<string, string> },
  ceilingUrl: string,
  turns: number,
  seconds: number,
): Promise<SideBySide> {
  const runnerTurns: ServerLoad[] = [];
  const ceilingTurns: ServerLoad[] = [];
  for (let turn = 0; turn < turns; turn++) {
    ceilingTurns.push(await load(ceilingUrl, { seconds }));
    runnerTurns.push(await load(runner.url, { headers: runner.headers, seconds }));
  }
  const ratios = runnerTurns.map((r, i) => r.measured.requestsPerSecond / ceilingTurns[i]!.measured.requestsPerSecond);
  return { runner: merged(runnerTurns), ceiling: merged(ceilingTurns), ratios, ratio: median(ratios) };
}
