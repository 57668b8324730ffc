import { readFileSync } from 'node:fs';
import { markdownTable } from './markdown-table.ts';

/** One figure of the bench: its value, and its target when it has one (bench/results.json's `rows`). */
export interface Row {
  section: string;
  figure: string;
  value: number | undefined;
  unit: string;
  /** Human form of the target, e.g. "≥ 0.8"; absent for figures given for context. */
  target?: string;
  pass?: boolean;
}

/** What the bench writes to bench/results.json that the guide shows. */
export interface BenchResults {
  at: string;
  machine: { node: string; cpus: number; loadAverageAtStart?: number[]; loadAverageAtEnd?: number[] };
  rows: Row[];
}

/** A figure as the bench prints it: thousands separated, two decimals below 10. */
export function formatFigure(value: number | undefined | null): string {
  if (value === undefined || value === null || Number.isNaN(value)) return 'n/a';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(value % 1 === 0 ? 0 : 2);
}

const load = (averages: number[] | undefined) => (averages ? averages.map((a) => a.toFixed(2)).join(', ') : 'n/a');

/**
 * docs/performance.md's tables: one per section of the bench's rows, under a line naming
 * the run. `npm run bench` writes them after a full run, `npm run docs` from the committed
 * bench/results.json, and test/unit/performance-tables.test.ts fails while they differ.
 */
export function performanceTables({ at, machine, rows }: BenchResults): string {
  const sections = [...new Set(rows.map((r) => r.section))];
  const checked = rows.filter((r) => r.pass !== undefined);
  const run =
    `The run of ${at} (Node ${machine.node}, ${machine.cpus} cores, load average ${load(machine.loadAverageAtStart)} at start and ` +
    `${load(machine.loadAverageAtEnd)} at end): ${checked.filter((r) => r.pass).length} of ${checked.length} targets met.`;
  const tables = sections.map((section) => {
    const cells = rows
      .filter((r) => r.section === section)
      .map((r) => [
        r.figure,
        `${formatFigure(r.value)} ${r.unit}`.trim(),
        r.target ?? '',
        r.pass === undefined ? '' : r.pass ? 'met' : 'missed',
      ]);
    return `**${section}**\n\n${markdownTable(['figure', 'value', 'target', 'result'], cells)}`;
  });
  return [run, ...tables].join('\n\n');
}

/** Where the tables go: docs/performance.md, between `<!-- bench-results: … -->` and `<!-- /bench-results -->`. */
export const performanceGuide = { file: 'docs/performance.md', section: 'bench-results' };

/** The tables of the committed bench/results.json, the last full `npm run bench`. */
export function committedPerformanceTables(): string {
  return performanceTables(JSON.parse(readFileSync(new URL('../../bench/results.json', import.meta.url), 'utf8')) as BenchResults);
}
