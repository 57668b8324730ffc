import * as z from 'zod/mini';
import { describe } from './schema-meta.ts';

/**
 * The query of a list endpoint (DECISIONS.md, Lists): page or cursor, per_page, sort,
 * sparse fields, search, status and date filters. Unknown fields are refused, never
 * ignored. How a list answers it is lists/list-page.ts.
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
/** Page numbers reach this many items (page x per_page); cursors go on past it. */
export const pageWindow = 10_000;
/** Sorts, searches and filters that no index serves run over this many items, in key order. */
export const searchWindow = 1_000;

// The field name is the key of the error, so the message says only what is wrong, as everywhere.
const positiveInt = z
  .pipe(z.string().check(z.regex(/^\d+$/, 'must be a positive integer')), z.transform(Number))
  .check(z.refine((n) => n >= 1, 'must be at least 1'));

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
    page: describe(
      z.optional(positiveInt),
      `Page number, from 1; default 1. Pages reach the first ${pageWindow.toLocaleString('en-US')} items; beyond them, use cursor.`,
    ),
    cursor: describe(
      z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
      'Where the previous page ended, as its links.next gives it (opaque). Not with page.',
    ),
    per_page: describe(
      z._default(
        z.pipe(
          positiveInt,
          z.transform((n: number) => Math.min(n, maxPerPage)),
        ),
        defaultPerPage,
      ),
      `Items per page; default ${defaultPerPage}, larger values are clamped to ${maxPerPage}.`,
    ),
    sort: describe(
      z.optional(csv(spec.sortable, 'sort field', true)),
      `Comma-separated fields, "-" for descending: ${spec.sortable.join(', ')}. Any order but the list's own runs over a window (meta.window).`,
    ),
    fields: describe(z.optional(csv(spec.fields, 'field')), `Comma-separated fields to return (id always): ${spec.fields.join(', ')}.`),
    include: describe(
      z.optional(csv(spec.includes ?? [], 'include')),
      `Related resources to load: ${spec.includes?.join(', ') || 'none on this list'}.`,
    ),
    search: describe(
      z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
      `Case-insensitive text in ${spec.searchable.join(' or ')}, over the first ${searchWindow.toLocaleString('en-US')} items (meta.window).`,
    ),
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
