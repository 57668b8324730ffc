import * as z from 'zod/mini';

/**
 * zod/mini has no `.describe()` or `.meta()`. These do what classic zod's methods do: return
 * a copy of the schema (with the original as its parent, so metadata is inherited, except
 * `id`) that carries the metadata in the global registry, leaving the original, which other
 * schemas may share, untouched. lib/openapi.ts reads the metadata back from that registry.
 */
export function withMeta<T extends z.ZodMiniType>(schema: T, meta: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}

export const describe = <T extends z.ZodMiniType>(schema: T, description: string): T => withMeta(schema, { description });
