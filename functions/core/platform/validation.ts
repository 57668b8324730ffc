import type * as z from 'zod/mini';
import { type FieldErrors, InvalidType, MissingBody, MissingParameter, ValidationFailed } from './errors.ts';
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

/** What a JSON value is, as a refusal names it. */
const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

/**
 * Parses a request body: no body at all where the route needs one is a 400
 * MISSING_PARAMETER naming what `{}` would lack; a JSON value that is not an object where
 * the route takes one (an array, a string, a number, null) a 400 INVALID_TYPE; a body of the
 * right kind with wrong fields the 422 of validate(), which names every one.
 */
export function validateBody<S extends z.ZodMiniType>(schema: S, sent: unknown): z.output<S> {
  if (sent === undefined) {
    const empty = schema.safeParse({});
    if (empty.success) return empty.data;
    throw new MissingBody(fieldErrors(empty.error, 'body'));
  }
  const takesObject = (schema as unknown as z.core.$ZodType)._zod.def.type === 'object';
  if (takesObject && (sent === null || typeof sent !== 'object' || Array.isArray(sent))) {
    throw new InvalidType('body', 'a JSON object', kindOf(sent));
  }
  return validate(schema, sent, 'body');
}
