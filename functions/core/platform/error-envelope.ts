import type { ApiError } from './errors.ts';

export interface EnvelopeContext {
  requestId: string;
  timestamp: string;
}

/**
 * The one error body of DECISIONS.md: variant A's `error` and variant C's `error_code`
 * side by side, each variant's extras at the top level, and `meta`. Also used to render
 * API Gateway's own responses (with `$context` placeholders as the context values).
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
