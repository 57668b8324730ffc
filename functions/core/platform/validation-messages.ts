import * as z from 'zod/mini';

/**
 * The house style of every validation message, request or configuration: a phrase that
 * follows the field's name ("name: is required", "per_page: must be at most 100"). A
 * schema's own message (`z.regex(p, 'must be a workspace id ...')`) still wins; this map
 * replaces zod's defaults ("Invalid input: expected string, received undefined").
 */

const kinds: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  record: 'an object',
  file: 'a file',
};

const formats: Record<string, string> = {
  email: 'an email address',
  url: 'a URL',
  uuid: 'a UUID',
  ulid: 'a ULID',
  datetime: 'an ISO 8601 date-time, e.g. 2026-01-01T00:00:00Z',
  date: 'an ISO 8601 date, e.g. 2026-01-01',
  time: 'an ISO 8601 time, e.g. 12:00:00',
  duration: 'an ISO 8601 duration',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  cidrv4: 'an IPv4 range',
  cidrv6: 'an IPv6 range',
  base64: 'base64',
  base64url: 'base64url',
  jwt: 'a JWT',
};

const plural = (n: number | bigint, one: string) => `${n} ${one}${n === 1 || n === 1n ? '' : 's'}`;

/** "at most 255 characters", "at least 1 item", "at most 720". */
function bound(origin: string, limit: number | bigint, side: 'at most' | 'at least', inclusive: boolean | undefined): string {
  if (origin === 'string') return `must be ${side} ${plural(limit, 'character')}`;
  if (origin === 'array' || origin === 'set') return `must have ${side} ${plural(limit, 'item')}`;
  if (origin === 'date') return `must be ${side === 'at most' ? 'on or before' : 'on or after'} ${new Date(Number(limit)).toISOString()}`;
  if (inclusive === false) return `must be ${side === 'at most' ? 'less' : 'greater'} than ${limit}`;
  return `must be ${side} ${limit}`;
}

const listed = (values: readonly unknown[]) => values.map((v) => String(v)).join(', ');

const houseStyle: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${kinds[issue.expected] ?? issue.expected}`;
    case 'too_big':
      return bound(issue.origin, issue.maximum, 'at most', issue.inclusive);
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return bound(issue.origin, issue.minimum, 'at least', issue.inclusive);
    case 'invalid_format':
      if (issue.format === 'starts_with') return `must start with ${(issue as { prefix?: string }).prefix}`;
      if (issue.format === 'ends_with') return `must end with ${(issue as { suffix?: string }).suffix}`;
      return formats[issue.format] ? `must be ${formats[issue.format]}` : 'is not in the expected format';
    case 'invalid_value':
      // An enum's field left out is missing, like any other: not a wrong value.
      if (issue.input === undefined) return 'is required';
      return issue.values.length === 1 ? `must be ${listed(issue.values)}` : `must be one of ${listed(issue.values)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return 'is not a recognised field';
    case 'invalid_union':
      return 'matches none of the accepted forms';
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has an element that is not allowed';
    default:
      return 'is not valid';
  }
};

// Global, so that every schema's parse uses it: request validation, configuration at start,
// and the domain's own parses alike. Importing this module is what installs it.
z.config({ customError: houseStyle });
