import type { ListQuery, ListSpec } from './list-query.ts';

type Item = Record<string, unknown>;

const dateFilters = [
  ['created_after', 'created_at', 1],
  ['created_before', 'created_at', -1],
  ['updated_after', 'updated_at', 1],
  ['updated_before', 'updated_at', -1],
] as const;

/** The values of a list's field filters in a query (ListSpec.filters and textFilters), by field. */
export const fieldFiltersOf = (query: ListQuery, spec: ListSpec): [string, string][] =>
  [...Object.keys(spec.filters ?? {}), ...(spec.textFilters ?? [])].flatMap((field) => {
    const value = (query as Record<string, unknown>)[field];
    return typeof value === 'string' ? [[field, value] as [string, string]] : [];
  });

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function matches(item: Item, query: ListQuery, spec: ListSpec): boolean {
  if (query.status !== undefined && spec.statusField && item[spec.statusField] !== query.status) return false;
  if (fieldFiltersOf(query, spec).some(([field, value]) => String(item[field]) !== value)) return false;
  for (const [param, field, direction] of dateFilters) {
    const bound = query[param];
    if (bound === undefined) continue;
    const value = Date.parse(String(item[field]));
    const limit = Date.parse(bound);
    if (direction === 1 ? !(value > limit) : !(value < limit)) return false;
  }
  if (query.search) {
    const needle = query.search.toLowerCase();
    return spec.searchable.some((field) =>
      String(item[field] ?? '')
        .toLowerCase()
        .includes(needle),
    );
  }
  return true;
}

/**
 * Answers filters, search and sort over items already read and in their API shape (a
 * window of the list): the matching items, sorted. Sorting is stable, so ties keep the
 * order the items came in.
 */
export function selectInWindow<T extends Item>(items: readonly T[], query: ListQuery, spec: ListSpec): T[] {
  const selected = items.filter((item) => matches(item, query, spec));
  const order = (query.sort ?? []).map((s) => (s.startsWith('-') ? { field: s.slice(1), dir: -1 } : { field: s, dir: 1 }));
  if (order.length) {
    selected.sort((a, b) => {
      for (const { field, dir } of order) {
        const c = compare(a[field], b[field]);
        if (c !== 0) return c * dir;
      }
      return 0;
    });
  }
  return selected;
}
