/** A page of an ElectroDB Query: its items, and where the next page starts (null after the last). */
export interface QueryPage<T> {
  data: T[];
  cursor: string | null;
}

/** Items read, and deleted, per page when a workspace's data is removed: never all of it in memory at once. */
export const purgePageSize = 500;

/** Reads a Query page by page (each `read` from where the last ended) and hands each non-empty page to `each`. */
export async function eachPage<T>(
  read: (cursor: string | null) => Promise<QueryPage<T>>,
  each: (rows: T[]) => Promise<unknown>,
): Promise<void> {
  let cursor: string | null = null;
  do {
    const page = await read(cursor);
    if (page.data.length) await each(page.data);
    cursor = page.cursor;
  } while (cursor);
}
