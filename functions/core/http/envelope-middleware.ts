import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '#core/platform/config';
import { errorEnvelope } from '#core/platform/error-envelope';
import { ApiError, InternalError, InvalidFormat, PayloadTooLarge } from '#core/platform/errors';
import { rateLimitHeaders } from '#core/platform/rate-limits';
import { acceptedPrincipal } from './authorizer-context.ts';
import { corsHeaders } from './cors.ts';
import { bodyBytes } from './unicode-text.ts';

/** Larger bodies are refused before parsing; nothing this service accepts comes near it. */
export const maxBodyBytes = 256 * 1024;

/** The form a client's own X-Request-ID must have to be echoed and logged; openapi.yaml declares it. */
export const requestIdLength = { min: 8, max: 128 } as const;
export const requestIdPattern = new RegExp(`^[A-Za-z0-9._:-]{${requestIdLength.min},${requestIdLength.max}}$`);

export function headerValue(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** A client's own X-Request-ID is kept when it is safe to echo and log; else the gateway's. */
export function requestIdOf(event: APIGatewayProxyEvent): string {
  const incoming = headerValue(event, 'x-request-id');
  return incoming && requestIdPattern.test(incoming) ? incoming : event.requestContext.requestId;
}

/**
 * Every response to an authenticated request reports the credential's rate limit, from the
 * authorizer's principal; public routes have no authorizer and report none. The 429 of the
 * authorizer carries its own (remaining 0) among its error headers.
 */
function rateLimitHeadersOf(event: APIGatewayProxyEvent): Record<string, string> {
  const state = acceptedPrincipal(event.requestContext?.authorizer)?.rateLimit;
  return state ? rateLimitHeaders(state) : {};
}

export function jsonResponse(
  event: APIGatewayProxyEvent,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  cookies: string[] = [],
): APIGatewayProxyResult {
  return {
    statusCode: status,
    ...(cookies.length ? { multiValueHeaders: { 'Set-Cookie': cookies } } : {}),
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      'Cache-Control': 'no-store',
      'X-Request-ID': requestIdOf(event),
      ...rateLimitHeadersOf(event),
      ...corsHeaders(event),
      ...headers,
    },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

/** An HTML page (OAuth's consent page) with the headers every answer carries. */
export function htmlResponse(
  event: APIGatewayProxyEvent,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return { ...jsonResponse(event, status, undefined, { 'Content-Type': 'text/html; charset=utf-8', ...headers }), body: html };
}

function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const cause = (error as { cause?: { package?: string; message?: string } })?.cause;
  if (cause?.package === '@middy/http-json-body-parser') {
    return new InvalidFormat(
      cause.message ? `The body is not valid JSON: ${cause.message}` : 'Send the body as JSON with Content-Type: application/json.',
    );
  }
  return undefined;
}

/**
 * Refuses oversized bodies, and turns every error into the envelope with the request id,
 * so nothing reaches a client as a stack trace. The error itself, with its stack, is
 * logged by the request log around it (request-log.ts).
 */
export function envelopeMiddleware(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async ({ event }) => {
      if (event.body && bodyBytes(event as APIGatewayProxyEvent & { body: string }) > maxBodyBytes) throw new PayloadTooLarge(maxBodyBytes);
    },
    onError: async (request) => {
      const known = asApiError(request.error);
      const error = known ?? new InternalError();
      const requestId = requestIdOf(request.event);
      const body = errorEnvelope(error, { requestId, timestamp: new Date().toISOString() });
      if (!known && config().DEBUG_ERRORS) body.debug = { exception: String(request.error), stack: (request.error as Error)?.stack };
      request.response = jsonResponse(request.event, error.status, body, error.headers);
    },
  };
}
