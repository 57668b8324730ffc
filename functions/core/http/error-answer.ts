import { config } from '#core/platform/config';
import { errorEnvelope } from '#core/platform/error-envelope';
import { ApiError, InternalError, ServiceUnavailable } from '#core/platform/errors';
import { isUnavailable } from '#core/platform/unavailable';
import type { ApiResponse } from './types.ts';

/** What an error that is not an ApiError is answered as: a dependency that is not there for now, or our fault. */
const unknownAnswered = (error: unknown): ApiError => (isUnavailable(error) ? new ServiceUnavailable() : new InternalError());

/**
 * Any error as the client sees it: the envelope with the request id, the error's status and
 * headers. What is not an ApiError is a fault of ours, answered 500 without its details
 * (with them in debug mode), so nothing reaches a client as a stack trace; the table
 * throttling past the SDK's retries, or out of reach, is 503 SERVICE_UNAVAILABLE instead.
 */
export function errorAnswer(error: unknown, requestId: string): ApiResponse {
  const known = error instanceof ApiError ? error : undefined;
  const answered = known ?? unknownAnswered(error);
  const body = errorEnvelope(answered, { requestId, timestamp: new Date().toISOString() });
  if (!known && config().DEBUG_ERRORS) body.debug = { exception: String(error), stack: (error as Error)?.stack };
  return { status: answered.status, body, headers: answered.headers };
}
