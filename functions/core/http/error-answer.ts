import { config } from '#core/platform/config';
import { errorEnvelope } from '#core/platform/error-envelope';
import { ApiError, InternalError } from '#core/platform/errors';
import type { ApiResponse } from './types.ts';

/**
 * Any error as the client sees it: the envelope with the request id, the error's status and
 * headers. What is not an ApiError is a fault of ours, answered 500 without its details
 * (with them in debug mode), so nothing reaches a client as a stack trace.
 */
export function errorAnswer(error: unknown, requestId: string): ApiResponse {
  const known = error instanceof ApiError ? error : undefined;
  const answered = known ?? new InternalError();
  const body = errorEnvelope(answered, { requestId, timestamp: new Date().toISOString() });
  if (!known && config().DEBUG_ERRORS) body.debug = { exception: String(error), stack: (error as Error)?.stack };
  return { status: answered.status, body, headers: answered.headers };
}
