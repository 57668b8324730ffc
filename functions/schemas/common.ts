import * as z from 'zod/mini';
import { describe, withMeta } from '#core/schema-meta';

export const timestamp = describe(z.iso.datetime(), 'ISO 8601 UTC timestamp');

export const listMeta = withMeta(
  z.object({
    current_page: z.int().check(z.gte(1)),
    per_page: z.int().check(z.gte(1), z.lte(100)),
    total: z.int().check(z.gte(0)),
    last_page: z.int().check(z.gte(1)),
    from: z.nullable(z.int()),
    to: z.nullable(z.int()),
  }),
  { id: 'ListMeta' },
);

export const listLinks = withMeta(
  z.object({ first: z.url(), last: z.url(), prev: z.nullable(z.url()), next: z.nullable(z.url()) }),
  { id: 'ListLinks' },
);

/**
 * A list item as `fields=` may trim it: every property but `id` is optional, so a trimmed
 * answer still matches its schema. A named item schema gets a named list-item twin.
 */
function trimmable<T extends z.ZodMiniObject>(item: T) {
  // A mask the type system cannot follow through a generic shape; partial() checks the keys at run time.
  const trimmed = Object.fromEntries(Object.keys(item.shape).filter((key) => key !== 'id').map((key) => [key, true])) as never;
  const id = z.globalRegistry.get(item)?.id;
  return withMeta(z.partial(item, trimmed), {
    ...(id ? { id: `${id}ListItem` } : {}),
    description: `${id ?? 'An item'} as lists show it: every property is present unless \`fields=\` trims the answer (id always stays).`,
  });
}

export const listOf = <T extends z.ZodMiniObject>(item: T) =>
  z.object({ data: z.array(trimmable(item)), meta: listMeta, links: listLinks });

export const dataOf = <T extends z.ZodMiniType>(item: T) => z.object({ data: item });

export const createdOf = <T extends z.ZodMiniType>(item: T) => z.object({ message: z.string(), data: item });

/** `name` of workspaces and keys: the spec's 255-character bound, blank names refused. */
export const resourceName = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(255, 'must be at most 255 characters'));
