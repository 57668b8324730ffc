import { type ParseArgsConfig, parseArgs } from 'node:util';
import type * as z from 'zod/mini';
import { ApiError } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { passwordFitsBcrypt, passwordMinLength, passwordTooLongMessage } from '#core/users/passwords';

/** A problem with what was typed: exit status 2, with a pointer to the command's help. */
export class UsageError extends Error {}

/** The operation could not be done (no such table, stack or workspace ...): exit status 1. */
export class CommandFailed extends Error {}

export interface CommandContext {
  /** The store of the table the options and environment name; opened on first use. */
  open(stack: string | undefined): Promise<Deps>;
  print(line?: string): void;
}

export interface Command {
  /** As typed after `admin`: `suspend`, `oauth-client create`. */
  name: string;
  summary: string;
  /** The options, one per line, as --help shows them. */
  options: string[];
  /** What else --help says, after the options. */
  notes?: string;
  run(args: string[], context: CommandContext): Promise<void>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every command takes. */
const common = {
  stack: { type: 'string' },
} as const satisfies Options;

export const commonOptionsHelp = '  --stack <name>         use the TableName output of this deployed stack (AWS_REGION)';

/** node:util parseArgs, strict, with the common options; its complaints become usage errors. */
export function parseOptions<const O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...options, ...common }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

export function required<T>(value: T | undefined, option: string): T {
  if (value === undefined || value === '') throw new UsageError(`--${option} is required`);
  return value;
}

/** A --password option: at least 8 characters, and no more than bcrypt reads (72 bytes). */
export function checkPassword(password: string): void {
  if (password.length < passwordMinLength) throw new UsageError(`--password must be at least ${passwordMinLength} characters`);
  if (!passwordFitsBcrypt(password)) throw new UsageError(`--password ${passwordTooLongMessage}`);
}

/**
 * An id option checked by the schema the API checks it with: a malformed id is a usage
 * error saying what an id looks like, not a 404 from the store.
 */
export function idOption(schema: z.ZodMiniType<string, string>, value: string, option: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--${option} ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/** One line for any failure: what the store answered (status and code), or what went wrong. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = (error.extras.errors ?? {}) as Record<string, string[]>;
    const details = Object.entries(fields).map(([field, problems]) => `${field}: ${problems.join(', ')}`);
    return `${[error.message, ...details].join(' ')} (${error.status} ${error.errorCode})`;
  }
  if (error instanceof UsageError || error instanceof CommandFailed) return error.message;
  const { name, message } = error as Error;
  return name && name !== 'Error' ? `${name}: ${message}` : String(message ?? error);
}
