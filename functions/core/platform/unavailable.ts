/**
 * The DynamoDB errors that mean "not now" rather than "never": throttling the SDK's own
 * retries (three, with backoff) did not outlast, and a table that cannot be reached. They
 * are answered 503 SERVICE_UNAVAILABLE with Retry-After, not 500 (http/error-answer.ts).
 */
const throttlingNames = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ThrottlingError',
  'LimitExceededException',
]);

/** Node's and the SDK's names for a connection that failed or timed out. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'TimeoutError']);

/** The error and what it wraps: ElectroDB keeps the SDK's error as `cause` (or `originalError`). */
function* chainOf(error: unknown): Generator<Record<string, unknown>> {
  for (let depth = 0, at = error; at && typeof at === 'object' && depth < 5; depth++) {
    const current = at as Record<string, unknown>;
    yield current;
    at = current.cause ?? current.originalError;
  }
}

export function isUnavailable(error: unknown): boolean {
  for (const link of chainOf(error)) {
    if (throttlingNames.has(String(link.name)) || throttlingNames.has(String(link.code))) return true;
    if (unreachableCodes.has(String(link.code)) || unreachableCodes.has(String(link.name))) return true;
    if (typeof link.message === 'string' && /ProvisionedThroughputExceeded|Throughput exceeds|ThrottlingError/.test(link.message))
      return true;
  }
  return false;
}
