import type { KeyOrderReader, KeyRange } from '#core/store/key-order';
import type { CountedCollection } from '#core/store/list-counts';

/**
 * A list as the domain declares it, for lists/list-page.ts to answer any query on it: the
 * collection it reads in key order (store/key-order.ts), whose size is counted
 * (store/list-counts.ts), and how its rows become the items the API shows.
 */
export interface ListSource<Row, Item> extends CountedCollection {
  /** The item field whose order the key order is (ties aside): `sort` on it is index-served. */
  orderedBy: string;
  /** `created_after`/`created_before` as a key range, where the sort key holds the creation time. */
  createdRange?: (after: number | undefined, before: number | undefined) => KeyRange;
  read: KeyOrderReader<Row>;
  /**
   * The items a query narrows the list to, found through an index over the whole collection
   * rather than over a window (posts' words, a category's posts): present when it narrows.
   */
  matching?: IndexedMatches<Row>;
  /** The rows in their API shape, in the same order (joins with other items happen here). */
  view(rows: Row[]): Promise<Item[]>;
}

/** Every item of a collection that a query's index-served filters keep, whatever the collection's size. */
export interface IndexedMatches<Row> {
  /** Their ids, in key order; throws a 422 for a filter it cannot answer. */
  ids(): Promise<string[]>;
  /** The rows of these ids, in the same order. */
  rows(ids: readonly string[]): Promise<Row[]>;
}
