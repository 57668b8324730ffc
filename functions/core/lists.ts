import * as z from 'zod/mini';
import { ValidationFailed } from './errors.ts';
import { describe } from './schema-meta.ts';

/**
 * List handling of DECISIONS.md: page and per_page, sort, sparse fields, search, status
 * and date filters, and the meta/links block. Unknown fields are refused, never ignored.
 */
export interface ListSpec {
  /** Every field a list item has; `fields` may name these. */
  fields: readonly string[];
  sortable: readonly string[];
  searchable: readonly string[];
  /** The item field that `status=` filters on, where the resource has one. */
  statusField?: string;
  statusValues?: readonly string[];
  includes?: readonly string[];
}

export const defaultPerPage = 25;
export const maxPerPage = 100;

const positiveInt = (name: string) =>
  z
    .pipe(z.string().check(z.regex(/^\d+$/, `${name} must be a positive integer`)), z.transform(Number))
    .check(z.refine((n) => n >= 1, `${name} must be at least 1`));

const isoDate = z.string().check(
  z.refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'must be an ISO 8601 date or date-time',
  }),
);

const csv = (allowed: readonly string[], what: string, allowDescending = false) =>
  z
    .pipe(
      z.string(),
      z.transform((v: string) => v.split(',').map((s) => s.trim()).filter(Boolean)),
    )
    .check(
      z.superRefine((items, ctx) => {
        for (const item of items) {
          const name = allowDescending && item.startsWith('-') ? item.slice(1) : item;
          if (!allowed.includes(name)) {
            ctx.addIssue({
              code: 'custom',
              message: `${what} "${name}" is not supported; use one of: ${allowed.join(', ') || '(none)'}`,
            });
          }
        }
      }),
    );

/** The query schema of a list endpoint: strict, so an unknown parameter is a 422. */
export function listQuerySchema(spec: ListSpec) {
  return z.strictObject({
    page: describe(z._default(positiveInt('page'), 1), 'Page number, from 1; default 1.'),
    per_page: describe(
      z._default(
        z.pipe(
          positiveInt('per_page'),
          z.transform((n: number) => Math.min(n, maxPerPage)),
        ),
        defaultPerPage,
      ),
      `Items per page; default ${defaultPerPage}, larger values are clamped to ${maxPerPage}.`,
    ),
    sort: describe(
      z.optional(csv(spec.sortable, 'sort field', true)),
      `Comma-separated fields, "-" for descending: ${spec.sortable.join(', ')}.`,
    ),
    fields: describe(z.optional(csv(spec.fields, 'field')), `Comma-separated fields to return (id always): ${spec.fields.join(', ')}.`),
    include: describe(
      z.optional(csv(spec.includes ?? [], 'include')),
      `Related resources to load: ${spec.includes?.join(', ') || 'none on this list'}.`,
    ),
    search: describe(z.optional(z.string().check(z.minLength(1), z.maxLength(200))), `Case-insensitive text in ${spec.searchable.join(' or ')}.`),
    ...(spec.statusField ? { status: z.optional(z.enum(spec.statusValues as [string, ...string[]])) } : {}),
    created_after: describe(z.optional(isoDate), 'Only items created after this ISO 8601 date or date-time.'),
    created_before: describe(z.optional(isoDate), 'Only items created before this ISO 8601 date or date-time.'),
    updated_after: describe(z.optional(isoDate), 'Only items updated after this ISO 8601 date or date-time.'),
    updated_before: describe(z.optional(isoDate), 'Only items updated before this ISO 8601 date or date-time.'),
    workspace_id: describe(z.optional(z.string()), 'Act in this workspace of yours (like X-Workspace-ID).'),
    namespace_id: describe(z.optional(z.string()), 'Namespace context.'),
  });
}

export type ListQuery = z.infer<ReturnType<typeof listQuerySchema>>;

export interface ListPage<T> {
  data: Partial<T>[];
  meta: { current_page: number; per_page: number; total: number; last_page: number; from: number | null; to: number | null };
  links: { first: string; last: string; prev: string | null; next: string | null };
}

type Item = Record<string, unknown>;

const dateFilters = [
  ['created_after', 'created_at', 1],
  ['created_before', 'created_at', -1],
  ['updated_after', 'updated_at', 1],
  ['updated_before', 'updated_at', -1],
] as const;

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function matches<T extends Item>(item: T, query: ListQuery, spec: ListSpec): boolean {
  if (query.status !== undefined && spec.statusField && item[spec.statusField] !== query.status) return false;
  for (const [param, field, direction] of dateFilters) {
    const bound = query[param];
    if (bound === undefined) continue;
    const value = Date.parse(String(item[field]));
    const limit = Date.parse(bound);
    if (direction === 1 ? !(value > limit) : !(value < limit)) return false;
  }
  if (query.search) {
    const needle = query.search.toLowerCase();
    return spec.searchable.some((field) => String(item[field] ?? '').toLowerCase().includes(needle));
  }
  return true;
}

function pick<T extends Item>(item: T, fields: readonly string[] | undefined): Partial<T> {
  if (!fields?.length) return item;
  const wanted = new Set(['id', ...fields]);
  return Object.fromEntries(Object.entries(item).filter(([key]) => wanted.has(key))) as Partial<T>;
}

function pageUrl(url: URL, page: number): string {
  const next = new URL(url);
  next.searchParams.set('page', String(page));
  return next.toString();
}

/**
 * Filters, sorts, pages and trims items that are already in their API shape. Items come
 * in creation order; sorting is stable, so ties keep that order.
 */
export function paginate<T extends Item>(items: readonly T[], query: ListQuery, spec: ListSpec, url: URL): ListPage<T> {
  if (query.created_after && query.created_before && Date.parse(query.created_after) >= Date.parse(query.created_before)) {
    throw new ValidationFailed({ created_before: ['must be later than created_after'] });
  }
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
  const total = selected.length;
  const perPage = query.per_page;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const start = (query.page - 1) * perPage;
  const data = selected.slice(start, start + perPage).map((item) => pick(item, query.fields));
  return {
    data,
    meta: {
      current_page: query.page,
      per_page: perPage,
      total,
      last_page: lastPage,
      from: data.length ? start + 1 : null,
      to: data.length ? start + data.length : null,
    },
    links: {
      first: pageUrl(url, 1),
      last: pageUrl(url, lastPage),
      prev: query.page > 1 ? pageUrl(url, Math.min(query.page - 1, lastPage)) : null,
      next: query.page < lastPage ? pageUrl(url, query.page + 1) : null,
    },
  };
}

