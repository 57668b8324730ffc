import { writeFileSync } from 'node:fs';

/** One figure of the table: its value, and its target when it has one. */
export interface Row {
  section: string;
  figure: string;
  value: number | undefined;
  unit: string;
  /** Human form of the target, e.g. "≥ 0.8"; absent for figures given for context. */
  target?: string;
  pass?: boolean;
}

export const atMost = (limit: number, unit = '') => ({
  target: `≤ ${format(limit)}${unit && ` ${unit}`}`,
  check: (value: number | undefined) => value !== undefined && value <= limit,
});
export const atLeast = (limit: number, unit = '') => ({
  target: `≥ ${format(limit)}${unit && ` ${unit}`}`,
  check: (value: number | undefined) => value !== undefined && value >= limit,
});

export const exactly = (expected: number) => ({
  target: `= ${format(expected)}`,
  check: (value: number | undefined) => value === expected,
});

/** A row, checked against `rule` when one is given. */
export function row(
  section: string,
  figure: string,
  value: number | undefined,
  unit: string,
  rule?: { target: string; check: (value: number | undefined) => boolean },
): Row {
  return rule ? { section, figure, value, unit, target: rule.target, pass: rule.check(value) } : { section, figure, value, unit };
}

function format(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return 'n/a';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(value % 1 === 0 ? 0 : 2);
}

/** The table as printed: one block per section, figures aligned, PASS/FAIL where there is a target. */
export function renderTable(rows: readonly Row[]): string {
  const cells = rows.map((r) => [
    r.figure,
    `${format(r.value)} ${r.unit}`.trim(),
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'PASS' : 'FAIL',
  ]);
  const header = ['figure', 'value', 'target', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    `  ${c[0]!.padEnd(widths[0]!)}  ${c[1]!.padStart(widths[1]!)}  ${c[2]!.padEnd(widths[2]!)}  ${c[3]}`.trimEnd();
  const out = [line(header), `  ${'-'.repeat(widths.reduce((a, b) => a + b + 2, 0))}`];
  let section = '';
  rows.forEach((r, i) => {
    if (r.section !== section) out.push(...(section ? [''] : []), (section = r.section));
    out.push(line(cells[i]!));
  });
  const checked = rows.filter((r) => r.pass !== undefined);
  out.push('', `${checked.filter((r) => r.pass).length} of ${checked.length} targets met.`);
  return out.join('\n');
}

export function writeResults(file: string, results: object): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
