import { writeFileSync } from 'node:fs';
import { formatFigure as format, type Row } from '#lib/docs/performance-tables';

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
