import type * as z from 'zod/mini';
import { ValidationFailed } from '#core/platform/errors';
import type { KeyRange } from '#core/store/key-order';
import { readCursor, signCursor } from './cursor.ts';
import { listUrls } from './links.ts';
import { type ListQuery, type ListSpec, pageWindow, searchWindow } from './list-query.ts';
import type { listLinks, listMeta } from './list-schemas.ts';
import type { IndexedMatches, ListSource } from './list-source.ts';
import { fieldFiltersOf, selectInWindow } from './window.ts';

type Item = Record<string, unknown>;

/** A page of a list, as listOf(item) in list-schemas.ts describes it: `fields=` may trim its items. */
export interface ListPage<T> {
  data: Partial<T>[];
  meta: z.output<typeof listMeta>;
  links: z.output<typeof listLinks>;
}

function pick<T extends Item>(item: T, fields: readonly string[] | undefined): Partial<T> {
  if (!fields?.length) return item;
  const wanted = new Set(['id', ...fields]);
  return Object.fromEntries(Object.entries(item).filter(([key]) => wanted.has(key))) as Partial<T>;
}

const lastPageOf = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

/** The direction of the key order a query asks for, or undefined when no index serves it. */
function keyOrderOf(query: ListQuery, spec: ListSpec, orderedBy: string): { descending: boolean } | undefined {
  const filtered = [query.search, query.status, query.created_after, query.created_before, query.updated_after, query.updated_before];
  if (filtered.some((value) => value !== undefined) || fieldFiltersOf(query, spec).length) return undefined;
  const sort = query.sort ?? [];
  if (sort.length === 0) return { descending: false };
  if (sort.length === 1 && (sort[0] === orderedBy || sort[0] === `-${orderedBy}`)) return { descending: sort[0]!.startsWith('-') };
  return undefined;
}

/**
 * Answers a list query. In the list's key order a page is read from the index, page one at the
 * same cost at any size and a cursor at the cost of one page; any other sort, search or filter
 * runs over the first `searchWindow` items, and `meta.window` says so.
 */
export async function listPage<Row, T extends Item>(
  source: ListSource<Row, T>,
  query: ListQuery,
  spec: ListSpec,
  url: URL,
): Promise<ListPage<T>> {
  if (query.created_after && query.created_before && Date.parse(query.created_after) >= Date.parse(query.created_before)) {
    throw new ValidationFailed({ created_before: ['must be later than created_after'] });
  }
  if (query.cursor !== undefined && query.page !== undefined) {
    throw new ValidationFailed({ cursor: ['goes without page: a cursor says where the page starts'] });
  }
  if (source.matching) return matchedPage(source, source.matching, query, spec, url);
  const keyOrder = keyOrderOf(query, spec, source.orderedBy);
  return keyOrder ? indexedPage(source, query, url, keyOrder.descending) : windowedPage(source, query, spec, url);
}

/** Cursors page a list in its own order; a query over a window or a search's matches pages by number. */
function refuseCursor(query: ListQuery, orderedBy: string, what: string): void {
  if (query.cursor === undefined) return;
  throw new ValidationFailed({
    cursor: [`pages a list in its own order (sort by ${orderedBy}, no search or filters); this query runs over ${what}: use page`],
  });
}

/**
 * Answers a query that an index narrows (ListSource.matching: a search of posts' words, a
 * category): every match is found, and `total` counts them all. In the list's own order
 * only the page's items are read; any other sort or filter runs over the first
 * `searchWindow` matches, and `meta.window` says so.
 */
async function matchedPage<Row, T extends Item>(
  source: ListSource<Row, T>,
  matching: IndexedMatches<Row>,
  query: ListQuery,
  spec: ListSpec,
  url: URL,
) {
  refuseCursor(query, source.orderedBy, "an index's matches");
  const range = createdRangeOf(source, query);
  const unsearched = { ...query, search: undefined };
  const keyOrder = keyOrderOf(unsearched, spec, source.orderedBy);
  const descending = keyOrder ? keyOrder.descending : query.sort?.[0] === `-${source.orderedBy}`;
  let ids = await matching.ids();
  if (range) ids = ids.filter((id) => id >= range.from && id <= range.to);
  if (descending) ids.reverse();
  if (keyOrder) {
    const start = ((query.page ?? 1) - 1) * query.per_page;
    const items = await source.view(await matching.rows(ids.slice(start, start + query.per_page)));
    return numberedPage(items, ids.length, query, url, null, start);
  }
  const items = await source.view(await matching.rows(ids.slice(0, searchWindow)));
  return numberedPage(selectInWindow(items, unsearched, spec), undefined, query, url, {
    size: searchWindow,
    complete: ids.length <= searchWindow,
  });
}

async function indexedPage<Row, T extends Item>(source: ListSource<Row, T>, query: ListQuery, url: URL, descending: boolean) {
  const perPage = query.per_page;
  const page = query.page ?? 1;
  if (query.cursor === undefined && page * perPage > pageWindow) {
    throw new ValidationFailed(
      {
        page: [
          `with per_page ${perPage} reaches item ${page * perPage}; page numbers reach the first ${pageWindow} items: go on with cursor, as links.next gives it`,
        ],
      },
      `Page numbers reach the first ${pageWindow.toLocaleString('en-US')} items of a list; page further with cursor.`,
    );
  }
  // The order is part of what a cursor is valid for; the filters never are (no cursor is given with them).
  const binding = `${source.collection}|${descending ? 'desc' : 'asc'}`;
  const start = query.cursor === undefined ? { after: undefined, position: (page - 1) * perPage } : readCursor(binding, query.cursor);
  const skip = query.cursor === undefined ? start.position : 0;
  const [{ rows, next }, counted] = await Promise.all([
    source.read({ skip, take: perPage, descending, after: start.after }),
    source.count(),
  ]);
  const data = (await source.view(rows)).map((item) => pick(item, query.fields));
  // Never fewer than this read has seen, should a count ever trail its items.
  const seen = rows.length ? start.position + rows.length + (next ? 1 : 0) : 0;
  const total = Math.max(counted, seen);
  const lastPage = lastPageOf(total, perPage);
  const reachable = (n: number) => n * perPage <= pageWindow;
  // A cursor's page is a numbered page when it starts at one (per_page unchanged on the way).
  const currentPage = start.position % perPage === 0 ? start.position / perPage + 1 : null;
  const urls = listUrls(url, perPage);
  return {
    data,
    meta: pageMeta(currentPage, perPage, total, lastPage, start.position, data.length, null),
    links: {
      first: urls.page(1),
      last: reachable(lastPage) ? urls.page(lastPage) : null,
      prev: currentPage && currentPage > 1 && reachable(currentPage - 1) ? urls.page(Math.min(currentPage - 1, lastPage)) : null,
      // Always a cursor: it goes on exactly after this page's last item, at the cost of one page.
      next: next ? urls.cursor(signCursor(binding, { after: next, position: start.position + rows.length })) : null,
    },
  };
}

/** meta of a page that shows `shown` items from position `start` (0-based) of the list. */
function pageMeta(
  currentPage: number | null,
  perPage: number,
  total: number,
  lastPage: number,
  start: number,
  shown: number,
  window: { size: number; complete: boolean } | null,
) {
  return {
    current_page: currentPage,
    per_page: perPage,
    total,
    last_page: lastPage,
    from: shown ? start + 1 : null,
    to: shown ? start + shown : null,
    window,
  };
}

async function windowedPage<Row, T extends Item>(source: ListSource<Row, T>, query: ListQuery, spec: ListSpec, url: URL) {
  refuseCursor(query, source.orderedBy, 'a window');
  const first = query.sort?.[0];
  const range = createdRangeOf(source, query);
  const { rows, next } =
    range && range.from > range.to
      ? { rows: [], next: null }
      : await source.read({ skip: 0, take: searchWindow, descending: first === `-${source.orderedBy}`, range });
  const selected = selectInWindow(await source.view(rows), query, spec);
  return numberedPage(selected, undefined, query, url, { size: searchWindow, complete: next === null });
}

/**
 * A numbered page of a list whose items are at hand: all of them (`total` undefined), or
 * the page's own, from position `start` of `total`.
 */
function numberedPage<T extends Item>(
  items: T[],
  total: number | undefined,
  query: ListQuery,
  url: URL,
  window: { size: number; complete: boolean } | null,
  start = ((query.page ?? 1) - 1) * query.per_page,
) {
  const perPage = query.per_page;
  const page = query.page ?? 1;
  const count = total ?? items.length;
  const lastPage = lastPageOf(count, perPage);
  const data = (total === undefined ? items.slice(start, start + perPage) : items).map((item) => pick(item, query.fields));
  const urls = listUrls(url, perPage);
  return {
    data,
    meta: pageMeta(page, perPage, count, lastPage, start, data.length, window),
    links: {
      first: urls.page(1),
      last: urls.page(lastPage),
      prev: page > 1 ? urls.page(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? urls.page(page + 1) : null,
    },
  };
}

/** The window starts where the creation-date filters do, where the key holds the creation time. */
function createdRangeOf<Row, T>(source: ListSource<Row, T>, query: ListQuery): KeyRange | undefined {
  if (!source.createdRange || (query.created_after === undefined && query.created_before === undefined)) return undefined;
  const ms = (date: string | undefined) => (date === undefined ? undefined : Date.parse(date));
  return source.createdRange(ms(query.created_after), ms(query.created_before));
}
