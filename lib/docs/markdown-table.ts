const escaped = (row: readonly string[]) => row.map((cell) => cell.replaceAll('|', '\\|'));

const line = (row: readonly string[]) => `| ${row.join(' | ')} |`;

/**
 * A Markdown table of the guides' generated sections, one line per row and no padding, so
 * that a change to one row is a change to one line. A `|` in a cell is escaped.
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [line(escaped(header)), `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => line(escaped(row)))].join('\n');
}
