import { createConversions } from 'electrodb';
import { hotPath } from './database.ts';

/** Inclusive bounds on the sort key of an access pattern, as its composite attribute's values. */
export interface KeyRange {
  from: string;
  to: string;
}

export interface KeyOrderRead {
  /** Rows to pass over before the ones wanted (a page number's offset). */
  skip: number;
  take: number;
  descending: boolean;
  /** Where an earlier read stopped: its `next`. */
  after?: string;
  range?: KeyRange;
}

export interface RowsInKeyOrder<Row> {
  rows: Row[];
  /** Where the next read goes on (ElectroDB's cursor after the last row); null when no row follows. */
  next: string | null;
}

/** An ElectroDB query of one access pattern, narrowed and filtered by the collection. */
interface OrderedQuery<Row> {
  go(options: { count: number; limit: number; order: 'asc' | 'desc'; cursor: string | null; originalErr: true }): Promise<{ data: Row[] }>;
}

export type KeyOrderReader<Row> = (read: KeyOrderRead) => Promise<RowsInKeyOrder<Row>>;

/**
 * Reads a collection in sort-key order with one Query limited to what is wanted, so that a read
 * costs what it returns and passes over, whatever the collection's size. ElectroDB's `count`
 * reads on to make up rows the filter drops (lapsed but not yet pruned), and one row more tells
 * whether another follows.
 */
export function keyOrderReader<Row extends object>(
  entity: object,
  accessPattern: string,
  query: (range: KeyRange | undefined) => OrderedQuery<Row>,
): KeyOrderReader<Row> {
  // ElectroDB's conversion types follow one concrete entity; this mechanism serves any.
  const conversions = (createConversions(entity as never) as { byAccessPattern: Record<string, Conversion> }).byAccessPattern[
    accessPattern
  ];
  if (!conversions) throw new Error(`no access pattern ${accessPattern}`);
  return async ({ skip, take, descending, after, range }) => {
    const wanted = skip + take + 1;
    const { data } = await query(range).go({
      count: wanted,
      limit: wanted,
      order: descending ? 'desc' : 'asc',
      cursor: after ?? null,
      ...hotPath,
    });
    const rows = data.slice(skip, skip + take);
    const last = rows[rows.length - 1];
    return { rows, next: data.length === wanted && last ? conversions.fromComposite.toCursor(last) : null };
  };
}

interface Conversion {
  fromComposite: { toCursor(composite: object): string };
}
