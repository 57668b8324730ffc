import * as z from 'zod/mini';
import { type IdKind, idInputPattern, idPrefixes, normaliseId } from './ids.ts';
import { describe } from './schema-meta.ts';
import { singleLine } from './text-rules.ts';

export const timestamp = describe(z.iso.datetime(), 'ISO 8601 UTC timestamp');

/** The fields of an object schema, in the order it declares them. */
export const fieldsOf = <T extends z.ZodMiniObject>(item: T) =>
  // Object.keys knows no keys; a schema's shape has exactly its fields.
  Object.keys(item.shape) as (keyof T['shape'] & string)[];

export const dataOf = <T extends z.ZodMiniType>(item: T) => z.object({ data: item });

export const createdOf = <T extends z.ZodMiniType>(item: T) => z.object({ message: z.string(), data: item });

/** `name` of workspaces, keys, tokens, users, packages and OAuth clients: one line, the spec's 255-character bound, blank names refused. */
export const resourceName = z
  .string()
  .check(singleLine(), z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(255, 'must be at most 255 characters'));

/** The query of a route that takes no other parameters: only the workspace and namespace context. */
export const contextQuery = z.strictObject({ workspace_id: z.optional(z.string()), namespace_id: z.optional(z.string()) });

export const noContent = { description: 'Done; no body.' };

/**
 * An id in a path or an option, e.g. `idOf('workspace', 'a workspace id')`: either case of
 * its ULID is accepted (ULIDs are case-insensitive) and read in the stored upper case.
 */
export const idOf = (kind: IdKind, noun: string) =>
  z.pipe(
    z.string().check(z.regex(idInputPattern(kind), `must be ${noun}: ${idPrefixes[kind]}_ followed by 26 letters and digits (a ULID)`)),
    z.transform(normaliseId),
  );
