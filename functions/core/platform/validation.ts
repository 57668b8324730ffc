import type * as z from 'zod/mini';
import { type FieldErrors, MissingParameter, ValidationFailed } from './errors.ts';
// Every message in the house style ("is required", "must be at most 100"), not zod's defaults.
import './validation-messages.ts';

function fieldErrors(error: z.core.$ZodError, root: string): FieldErrors {
  // Field names come from the client: no prototype, so "constructor" or "__proto__" are plain keys.
  const errors: FieldErrors = Object.create(null);
  for (const issue of error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of keys) {
      const field = path.length ? path.map(String).join('.') : root;
      (errors[field] ??= []).push(issue.message);
    }
  }
  return errors;
}

/**
 * The query parameters a failure is about that the client did not send at all: they are
 * flat strings, so a top-level issue on an absent key is a missing one, whatever the schema
 * would say of a wrong value ("must be one of ..."). Path parameters cannot be missing: a
 * path without one matches no route.
 */
function absentParameters(error: z.core.$ZodError, input: Record<string, unknown>): string[] {
  const absent = error.issues
    .filter((issue) => issue.code !== 'unrecognized_keys' && issue.path.length === 1)
    .map((issue) => String(issue.path[0]))
    .filter((name) => !Object.hasOwn(input, name) || input[name] === undefined);
  return [...new Set(absent)];
}

/**
 * Parses input against a schema; a failure is a 422 that names every bad field, except a
 * required query parameter not sent at all: a 400 MISSING_PARAMETER that names it.
 */
export function validate<S extends z.ZodMiniType>(schema: S, input: unknown, root: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  if (root === 'query') {
    const missing = absentParameters(result.error, input as Record<string, unknown>);
    if (missing.length) throw new MissingParameter(missing);
  }
  throw new ValidationFailed(fieldErrors(result.error, root));
}
