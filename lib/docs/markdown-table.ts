/** Biome pads no column of a Markdown table to less than this. */
const minimumWidth = 3;

const widthOf = (cell: string) => [...cell].length;

const padded = (cell: string, width: number) => cell + ' '.repeat(width - widthOf(cell));

const escaped = (row: readonly string[]) => row.map((cell) => cell.replaceAll('|', '\\|'));

/**
 * A Markdown table laid out as `biome format` lays out README.md (every column padded to
 * its widest cell), so that formatting the README leaves a generated table as it is and
 * the tests can compare it word for word. A `|` in a cell is escaped.
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = escaped(header);
  const body = rows.map(escaped);
  const widths = head.map((title, column) => Math.max(minimumWidth, widthOf(title), ...body.map((row) => widthOf(row[column] ?? ''))));
  const line = (row: readonly string[]) => `| ${widths.map((width, column) => padded(row[column] ?? '', width)).join(' | ')} |`;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}
