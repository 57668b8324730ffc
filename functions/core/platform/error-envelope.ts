import type { ApiError } from './errors.ts';

export interface EnvelopeContext {
  requestId: string;
  timestamp: string;
}

/**
 * The one error body (docs/decisions.md, Errors), carrying variants A and C side by side; API
 * Gateway's own answers are rendered from it too, with `$context` placeholders as the context.
 */
export function errorEnvelope(error: ApiError, context: EnvelopeContext): Record<string, unknown> {
  return {
    error: error.code,
    error_code: error.errorCode,
    message: error.message,
    ...error.extras,
    request_id: context.requestId,
    meta: { request_id: context.requestId, timestamp: context.timestamp, ...error.meta },
  };
}
