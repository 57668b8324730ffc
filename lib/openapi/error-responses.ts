import { apiGatewayMaxPayloadBytes } from '#core/http/gateway-responses';
import { maxBodyBytes } from '#core/http/http-answer';
import type { Route } from '#core/http/route-types';
import { maxJsonDepth } from '#core/http/strict-json';
import {
  type DocumentedLimits,
  type ErrorCode,
  type ErrorEntry,
  errorCatalogue,
  type JsonSchema,
  statusesOf,
} from '#core/platform/error-catalogue';
import { maxAttempts } from '#core/webhooks/ladder';
import { webhookTestThrottle } from '#core/webhooks/test-send';
import { errorCodesOf } from './route-errors.ts';

/**
 * The error side of openapi.yaml, generated from the error catalogue: the envelope, one
 * schema per code (its constants and extras), the headers, and each route's error
 * responses grouped by status.
 */
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const documentedLimits: DocumentedLimits = {
  deliveryAttempts: maxAttempts,
  testSendsPerMinute: (webhookTestThrottle.limit * 60) / webhookTestThrottle.windowSeconds,
  jsonDepth: maxJsonDepth,
  functionBodyBytes: maxBodyBytes,
  gatewayBodyBytes: apiGatewayMaxPayloadBytes,
};

const descriptionOf = ({ description }: ErrorEntry): string =>
  typeof description === 'string' ? description : description(documentedLimits);

/** RESOURCE_NOT_FOUND is described by ResourceNotFoundError, INTERNAL_ERROR by InternalError. */
export function errorSchemaName(code: ErrorCode): string {
  const name = code
    .split('_')
    .map((word) => word[0] + word.slice(1).toLowerCase())
    .join('');
  return name.endsWith('Error') ? name : `${name}Error`;
}

const timestampDescription =
  "When the error was answered: ISO 8601 from the functions; API Gateway's own answers give its requestTime (`22/Nov/2026:13:22:02 +0000`).";

/** What every error body carries (docs/decisions.md, Errors); the code schemas add their extras. */
export const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  description:
    'The error envelope every 4xx and 5xx answers with: variant A’s lowercase `error` and variant C’s uppercase ' +
    '`error_code` side by side, each code’s extras at the top level, and `meta`.',
  required: ['error', 'error_code', 'message', 'request_id', 'meta'],
  properties: {
    error: { type: 'string', description: 'Lowercase code, e.g. validation_failed.' },
    error_code: { type: 'string', description: 'Uppercase code, e.g. VALIDATION_FAILED.' },
    message: { type: 'string', description: 'Human readable; never a stack trace.' },
    request_id: { type: 'string', description: 'The X-Request-ID of the answer.' },
    meta: {
      type: 'object',
      required: ['request_id', 'timestamp'],
      properties: { request_id: { type: 'string' }, timestamp: { type: 'string', description: timestampDescription } },
    },
    debug: { type: 'object', description: 'Only with DEBUG_ERRORS on (local development): the exception and its stack, on a 500.' },
  },
};

/** One code: the envelope with its constants, its extras required, nothing else. */
export function errorCodeSchema(code: ErrorCode): JsonSchema {
  const entry: ErrorEntry = errorCatalogue[code];
  const carries = entry.carries ?? {};
  const meta = entry.meta ?? {};
  return {
    description: descriptionOf(entry),
    allOf: [schemaRef('Error')],
    ...(Object.keys(carries).length ? { required: Object.keys(carries) } : {}),
    properties: {
      error: { const: entry.code },
      error_code: { const: code },
      ...carries,
      ...entry.mayCarry,
      meta: {
        type: 'object',
        ...(Object.keys(meta).length ? { required: Object.keys(meta) } : {}),
        properties: { request_id: {}, timestamp: {}, ...meta },
        additionalProperties: false,
      },
    },
    unevaluatedProperties: false,
  };
}

const rateLimitHeaderNames = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const requiredHeader = (description: string, schema: JsonSchema) => ({ description, required: true, schema });

export const headerComponents = {
  'X-Request-ID': requiredHeader('The id of this request; quote it when reporting a problem.', { type: 'string' }),
  'X-RateLimit-Limit': requiredHeader("The credential's allowance per minute.", { type: 'integer' }),
  'X-RateLimit-Remaining': requiredHeader('What is left of it in this window.', { type: 'integer' }),
  'X-RateLimit-Reset': requiredHeader('When the window ends, in Unix seconds.', { type: 'integer' }),
  'Retry-After': requiredHeader('Seconds to wait before retrying.', { type: 'integer' }),
  Allow: requiredHeader('The methods the path takes.', { type: 'string' }),
  'WWW-Authenticate': requiredHeader(
    'The scheme to authenticate with (RFC 6750 section 3): `Bearer`, or `Bearer error="invalid_token", error_description="…"` for a refused Bearer credential.',
    { type: 'string' },
  ),
};

/** The headers of an answer: X-Request-ID always, the rate limit where the credential was counted. */
export function headersOf(counted: boolean, extra: readonly string[] = []) {
  const names = ['X-Request-ID', ...(counted ? rateLimitHeaderNames : []), ...extra];
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

const rateLimitNote = ' The X-RateLimit-* headers come too where the credential was accepted before the refusal.';

function errorResponse(route: Route, codes: ErrorCode[]) {
  const entries: ErrorEntry[] = codes.map((code) => errorCatalogue[code]);
  // A header is declared required only where every code of the status carries it.
  const credential = route.auth === 'credential';
  const counted = credential && entries.every((entry) => entry.rateLimitHeaders === 'always');
  const sometimesCounted = credential && !counted && entries.some((entry) => entry.rateLimitHeaders);
  const headers = [...new Set(entries.flatMap((entry) => entry.headers ?? []))].filter((name) =>
    entries.every((entry) => entry.headers?.includes(name)),
  );
  const described = codes.map((code) => `\`${code}\`: ${descriptionOf(errorCatalogue[code])}`).join(' ');
  const schemas = codes.map((code) => schemaRef(errorSchemaName(code)));
  return {
    description: described + (sometimesCounted ? rateLimitNote : ''),
    headers: headersOf(counted, headers),
    content: {
      'application/json': { schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas } },
      // A browser pressing a mailed link's button reads the refusal as a page.
      ...(route.htmlRefusals ? { 'text/html': { schema: { type: 'string' } } } : {}),
    },
  };
}

/** Every error status the route can answer, each with the codes it may carry. */
export function errorResponsesOf(route: Route): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    for (const status of statusesOf(errorCatalogue[code])) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [String(status), errorResponse(route, codes)]),
  );
}
