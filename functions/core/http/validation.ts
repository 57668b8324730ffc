import type { z } from 'zod';
import { ValidationFailed, type FieldErrors } from '../errors.ts';

export function fieldErrors(error: z.ZodError, root: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of keys) {
      const field = path.length ? path.map(String).join('.') : root;
      const message = issue.code === 'unrecognized_keys' ? 'is not a recognised field' : issue.message;
      (errors[field] ??= []).push(message);
    }
  }
  return errors;
}

/** Parses input against a schema; a failure is a 422 that names every bad field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, root: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationFailed(fieldErrors(result.error, root));
  return result.data;
}
