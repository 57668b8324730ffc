import * as z from 'zod/mini';
import { ValidationFailed, type FieldErrors } from '../errors.ts';
// Every message in the house style ("is required", "must be at most 100"), not zod's defaults.
import '../validation-messages.ts';

export function fieldErrors(error: z.core.$ZodError, root: string): FieldErrors {
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

/** Parses input against a schema; a failure is a 422 that names every bad field. */
export function validate<S extends z.ZodMiniType>(schema: S, input: unknown, root: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationFailed(fieldErrors(result.error, root));
  return result.data;
}
