import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Principal } from '#core/access/principal';
import { rateLimitHeaders } from '#core/platform/rate-limits';
import { corsHeaders } from './cors.ts';
import { deprecationHeadersFor } from './deprecation.ts';
import type { ApiResponse } from './types.ts';

/** Larger bodies are refused before parsing; nothing this service accepts comes near it. */
export const maxBodyBytes = 256 * 1024;

/**
 * What an answer's body may grow to, as Lambda carries it: the JSON text encoded once more
 * as a string of the proxy result, whose limit is 6 MB. Kept well under, for the headers.
 */
const maxAnswerBytes = 5 * 1024 * 1024;

/** Whether a body fits one Lambda answer; a list of large items (posts with their content) may not. */
export const fitsOneAnswer = (body: unknown): boolean => Buffer.byteLength(JSON.stringify(JSON.stringify(body))) <= maxAnswerBytes;

/**
 * An answer as API Gateway returns it, with what every answer carries: its request id, CORS,
 * the credential's rate limit, the version's deprecation notice. HTML where the handler made a
 * page, JSON otherwise.
 */
export function httpAnswer(
  event: APIGatewayProxyEvent,
  requestId: string,
  answer: ApiResponse,
  principal?: Principal,
): APIGatewayProxyResult {
  const { status, body, html, headers = {}, cookies = [] } = answer;
  const contentType: Record<string, string> =
    html !== undefined ? { 'Content-Type': 'text/html; charset=utf-8' } : body === undefined ? {} : { 'Content-Type': 'application/json' };
  return {
    statusCode: status,
    ...(cookies.length ? { multiValueHeaders: { 'Set-Cookie': cookies } } : {}),
    headers: {
      ...contentType,
      'Cache-Control': 'no-store',
      'X-Request-ID': requestId,
      ...(principal?.rateLimit ? rateLimitHeaders(principal.rateLimit) : {}),
      ...corsHeaders(event),
      ...deprecationHeadersFor(event.path),
      ...headers,
    },
    body: html ?? (body === undefined ? '' : JSON.stringify(body)),
  };
}
