import * as z from 'zod/mini';
import { describe, withMeta } from '#core/platform/schema-meta';
import { maxPerPage, pageWindow } from './list-query.ts';

const listWindow = withMeta(
  z.object({
    size: describe(z.int().check(z.gte(1)), 'How many items of the list, in its own order, the answer was taken from.'),
    complete: describe(z.boolean(), 'True when the window held the whole list, so the answer is exact.'),
  }),
  {
    id: 'ListWindow',
    description: 'Present when a sort, search or filter no index serves was answered over the first `size` items only.',
  },
);

export const listMeta = withMeta(
  z.object({
    current_page: describe(
      z.nullable(z.int().check(z.gte(1))),
      'Null on a page reached by a cursor when it does not start at a page boundary (per_page changed on the way).',
    ),
    per_page: z.int().check(z.gte(1), z.lte(maxPerPage)),
    total: describe(z.int().check(z.gte(0)), 'Items in the list (in the window, when `window` is set).'),
    last_page: z.int().check(z.gte(1)),
    from: describe(z.nullable(z.int()), 'Position of the first item of this page in the list; null on an empty page.'),
    to: z.nullable(z.int()),
    window: z.nullable(listWindow),
  }),
  { id: 'ListMeta' },
);

export const listLinks = withMeta(
  z.object({
    first: z.url(),
    last: describe(
      z.nullable(z.url()),
      `Null when the last page lies beyond the reach of page numbers (page x per_page > ${pageWindow.toLocaleString('en-US')}).`,
    ),
    prev: describe(z.nullable(z.url()), 'By page number; null on the first page, or where current_page is null.'),
    next: describe(
      z.nullable(z.url()),
      'By cursor on lists in their own order (it continues right after this page), by page number on a windowed answer; null on the last page.',
    ),
  }),
  { id: 'ListLinks' },
);

/**
 * A list item as `fields=` may trim it: every property but `id` is optional, so a trimmed
 * answer still matches its schema. A named item schema gets a named list-item twin.
 */
function trimmable<T extends z.ZodMiniObject>(item: T) {
  // A mask the type system cannot follow through a generic shape; partial() checks the keys at run time.
  const trimmed = Object.fromEntries(
    Object.keys(item.shape)
      .filter((key) => key !== 'id')
      .map((key) => [key, true]),
  ) as never;
  const id = z.globalRegistry.get(item)?.id;
  return withMeta(z.partial(item, trimmed), {
    ...(id ? { id: `${id}ListItem` } : {}),
    description: `${id ?? 'An item'} as lists show it: every property is present unless \`fields=\` trims the answer (id always stays).`,
  });
}

/** What a list endpoint answers: a page of its items, with the page's `meta` and `links` (list-page.ts makes it). */
export const listOf = <T extends z.ZodMiniObject>(item: T) =>
  z.object({ data: z.array(trimmable(item)), meta: listMeta, links: listLinks });
