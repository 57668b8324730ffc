import * as z from 'zod/mini';
import { idInputPattern, idPrefixes, normaliseId, type IdKind } from '#core/ids';
import { describe, withMeta } from '#core/schema-meta';

export const timestamp = describe(z.iso.datetime(), 'ISO 8601 UTC timestamp');

export const errorEnvelope = withMeta(
  z.looseObject({
    error: describe(z.string(), 'lowercase code, e.g. validation_failed'),
    error_code: describe(z.string(), 'uppercase code, e.g. VALIDATION_FAILED'),
    message: z.string(),
    request_id: z.string(),
    errors: z.optional(z.record(z.string(), z.array(z.string()))),
    required_scope: z.optional(z.string()),
    provided_scopes: z.optional(z.array(z.string())),
    resource_type: z.optional(z.string()),
    resource_id: z.optional(z.string()),
    requested_path: z.optional(z.string()),
    conflicting_field: z.optional(z.string()),
    meta: z.looseObject({ request_id: z.string(), timestamp }),
  }),
  { id: 'Error', description: 'The error envelope every 4xx and 5xx answers with.' },
);

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

export const listOf = <T extends z.ZodMiniType>(item: T) => z.object({ data: z.array(item), meta: listMeta, links: listLinks });

export const dataOf = <T extends z.ZodMiniType>(item: T) => z.object({ data: item });

export const createdOf = <T extends z.ZodMiniType>(item: T) => z.object({ message: z.string(), data: item });

/** `name` of workspaces and keys: the spec's 255-character bound, blank names refused. */
export const resourceName = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(255, 'must be at most 255 characters'));

/**
 * An id in a path or an option, e.g. `idOf('workspace', 'a workspace id')`: either case of
 * its ULID is accepted (ULIDs are case-insensitive) and read in the stored upper case.
 */
export const idOf = (kind: IdKind, noun: string) =>
  z.pipe(
    z.string().check(z.regex(idInputPattern(kind), `must be ${noun}: ${idPrefixes[kind]}_ followed by 26 letters and digits (a ULID)`)),
    z.transform(normaliseId),
  );
