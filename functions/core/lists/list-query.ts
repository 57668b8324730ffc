import * as z from 'zod/mini';
import { describe, onTheWire } from '#core/platform/schema-meta';
import { singleLine } from '#core/platform/text-rules';

/** How far lists reach: the query below and list-page.ts keep to these; the answer (list-schemas.ts) and openapi.yaml name them. */
export const defaultPerPage = 25;
export const maxPerPage = 100;
/** Page numbers reach this many items (page x per_page); cursors go on past it. */
export const pageWindow = 10_000;
/** Sorts, searches and filters that no index serves run over this many items, in key order. */
export const searchWindow = 1_000;

/**
 * The query of a list endpoint (docs/decisions.md, Lists): page or cursor, per_page, sort,
 * sparse fields, search, status and date filters. Unknown fields are refused, never
 * ignored. How a list answers it is lists/list-page.ts.
 */
export interface ListSpec<Field extends string = string> {
  /** Every field a list item has (fieldsOf its item schema); `fields` may name these. */
  fields: readonly Field[];
  sortable: readonly Field[];
  searchable: readonly Field[];
  /** `search` matches words and word prefixes of the searchable fields through an index, over the whole list (ListSource.matching). */
  searchByWords?: true;
  /** The item field that `status=` filters on, where the resource has one. */
  statusField?: Field;
  statusValues?: readonly string[];
  includes?: readonly string[];
  /**
   * Query parameters named as item fields that keep the items whose field has the value given (`owner_type=User`, `is_active=false`).
   * A list's own spec names only fields of its item; any list's (Field = string) is a plain record, every value present.
   */
  filters?: Readonly<string extends Field ? Record<string, FilterValues> : Partial<Record<Field, FilterValues>>>;
  /** Query parameters named as item fields that keep the items whose field is exactly the text given (`url=`, `issue_type=`). */
  textFilters?: readonly Field[];
}

type FilterValues = readonly [string, ...string[]];

/** A filter on a boolean field (`is_active`): read from its text, documented as the boolean a client sends. */
const isTrueOrFalse = (values: FilterValues) => values.length === 2 && values.includes('true') && values.includes('false');

/** The query schema's field filters; typed loosely, as ListQuery holds no list's own fields. */
const fieldFilterParams = (spec: ListSpec) =>
  Object.fromEntries([
    ...Object.entries(spec.filters ?? {}).map(([field, values]) => [
      field,
      describe(
        z.optional(isTrueOrFalse(values) ? onTheWire(z.enum(values), { type: 'boolean' }) : z.enum(values)),
        `Only items whose ${field} is this: ${values.join(' or ')}.`,
      ),
    ]),
    ...(spec.textFilters ?? []).map((field) => [
      field,
      describe(
        z.optional(z.string().check(singleLine(), z.minLength(1), z.maxLength(2048))),
        `Only items whose ${field} is exactly this text.`,
      ),
    ]),
  ]) as Record<never, never>;

// The field name is the key of the error, so the message says only what is wrong, as everywhere.
/** At most nine digits: a longer number is no page or size any list reaches, and past 2^53 it would not even be exact. */
const maxPositiveInt = 999_999_999;
const positiveInt = z
  .pipe(
    z.string().check(z.regex(/^\d+$/, 'must be a positive integer'), z.maxLength(9, `must be at most ${maxPositiveInt}`)),
    z.transform(Number),
  )
  .check(z.refine((n) => n >= 1, 'must be at least 1'));

/** What page and per_page accept, as openapi.yaml declares them: a larger per_page is accepted and clamped. */
const positiveIntBounds = { type: 'integer', minimum: 1, maximum: maxPositiveInt } as const;

const isoDateShape = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * A calendar date (read as UTC midnight) or a date-time with its zone: a zone-less time
 * would be read in the server's zone, and an impossible day (February 30) would roll over,
 * so both are refused rather than guessed.
 */
function isIsoDate(value: string): boolean {
  const parts = isoDateShape.exec(value);
  if (!parts) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts
    .slice(1, 7)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    !Number.isNaN(Date.parse(value))
  );
}

const isoDate = z
  .string()
  .check(z.refine(isIsoDate, { message: 'must be an ISO 8601 date (2026-11-23) or a date-time with its zone (2026-11-23T08:00:00Z)' }));

const csv = (allowed: readonly string[], what: string, allowDescending = false) =>
  z
    .pipe(
      z.string(),
      z.transform((v: string) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
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

/**
 * A date filter on a field the list's items do not have is refused (422): answering it
 * with nothing would be a confident wrong answer.
 */
const dateFiltersWithoutField = (spec: ListSpec) =>
  z.superRefine((query: Record<string, unknown>, ctx) => {
    for (const field of ['created', 'updated'] as const) {
      if (spec.fields.includes(`${field}_at`)) continue;
      for (const param of [`${field}_after`, `${field}_before`]) {
        if (query[param] !== undefined)
          ctx.addIssue({ code: 'custom', path: [param], message: `is not a filter of this list: its items have no ${field}_at` });
      }
    }
  });

/**
 * The query schema of a list endpoint: strict, so an unknown parameter is a 422. `own`:
 * parameters the list itself takes, that are no filter of its items (the `url` whose
 * reports GET /seo/reports lists).
 */
export function listQuerySchema<Own extends z.core.$ZodLooseShape = Record<never, never>>(spec: ListSpec, own: Own = {} as Own) {
  return z
    .strictObject({
      ...own,
      page: describe(
        z.optional(onTheWire(positiveInt, positiveIntBounds)),
        `Page number, from 1; default 1. Pages reach the first ${pageWindow.toLocaleString('en-US')} items; beyond them, use cursor.`,
      ),
      cursor: describe(
        z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
        'Where the previous page ended, as its links.next gives it (opaque). Not with page.',
      ),
      per_page: describe(
        onTheWire(
          z._default(
            z.pipe(
              positiveInt,
              z.transform((n: number) => Math.min(n, maxPerPage)),
            ),
            defaultPerPage,
          ),
          { ...positiveIntBounds, default: defaultPerPage },
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
        z.optional(z.string().check(singleLine(), z.minLength(1), z.maxLength(200))),
        spec.searchByWords
          ? `Words of ${spec.searchable.join(' and ')}: each word of the search must begin a word of the item (case- and accent-insensitive), over the whole list.`
          : `Case-insensitive text in ${spec.searchable.join(' or ')}, over the first ${searchWindow.toLocaleString('en-US')} items (meta.window).`,
      ),
      ...(spec.statusField ? { status: z.optional(z.enum(spec.statusValues as [string, ...string[]])) } : {}),
      ...fieldFilterParams(spec),
      created_after: describe(z.optional(isoDate), 'Only items created after this ISO 8601 date or date-time.'),
      created_before: describe(z.optional(isoDate), 'Only items created before this ISO 8601 date or date-time.'),
      updated_after: describe(z.optional(isoDate), 'Only items updated after this ISO 8601 date or date-time.'),
      updated_before: describe(z.optional(isoDate), 'Only items updated before this ISO 8601 date or date-time.'),
      workspace_id: describe(z.optional(z.string()), 'Act in this workspace of yours (like X-Workspace-ID).'),
      namespace_id: describe(z.optional(z.string()), 'Namespace context.'),
    })
    .check(dateFiltersWithoutField(spec));
}

export type ListQuery = z.infer<ReturnType<typeof listQuerySchema<Record<never, never>>>>;
