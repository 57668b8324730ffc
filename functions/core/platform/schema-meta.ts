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

/**
 * What a query or path parameter is on the wire: every one arrives as text, so its schema
 * reads digits or `true`/`false` from a string, but a client sends (and a client generated
 * from openapi.yaml types) a number or a boolean. lib/openapi.ts documents the parameter as this.
 */
export type WireSchema = { type: 'integer'; minimum: number; maximum: number; default?: number } | { type: 'boolean' };

const wireSchemas = z.registry<WireSchema>();

/** A copy of `schema`, a parameter read from text, documented as the integer or boolean it stands for. */
export function onTheWire<T extends z.ZodMiniType>(schema: T, wire: WireSchema): T {
  const copy = schema.clone();
  wireSchemas.add(copy, wire);
  return copy;
}

/** A parameter of digits read as a whole number: its text checked with the house messages, documented as an integer. */
export const wholeNumberText = (bounds: { minimum: number; maximum: number }, message: string) =>
  onTheWire(z.pipe(z.string().check(z.regex(new RegExp(`^\\d{1,${String(bounds.maximum).length}}$`), message)), z.transform(Number)), {
    type: 'integer',
    ...bounds,
  });

/**
 * A `z.toJSONSchema` override: a parameter read from text is documented as what a client
 * sends, the integer or boolean (openapi.yaml's parameters, MCP tools' inputSchema alike).
 */
export function asOnTheWire({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: Record<string, unknown> }): void {
  const wire = wireSchemas.get(zodSchema as z.ZodMiniType);
  if (!wire) return;
  for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete jsonSchema[key];
  Object.assign(jsonSchema, wire);
}
