import { delayBefore } from './ladder.ts';
import type { SendResult } from './sender.ts';

/** Where an attempt leaves its delivery. */
export type AttemptOutcome = { next: 'success' } | { next: 'failed' } | { next: 'retrying'; delaySeconds: number };

/**
 * The state table: a 2xx is a success; a 5xx, a timeout or a connection failure is tried
 * again after the ladder's next delay (times `retryScale`), unless this was the last
 * attempt; anything else ends the delivery `failed` at once: a 4xx (the receiver rejects
 * it), a 3xx (redirects are not followed, and the same URL will redirect again), and a
 * send refused before it started (a scheme or address not allowed).
 */
export function outcomeOf(result: SendResult, attempt: number, retryScale: number): AttemptOutcome {
  const status = result.statusCode;
  if (status !== undefined && status >= 200 && status < 300) return { next: 'success' };
  const retryable = status === undefined ? !result.refused : status >= 500 && status < 600;
  const delay = retryable ? delayBefore(attempt + 1) : undefined;
  return delay === undefined ? { next: 'failed' } : { next: 'retrying', delaySeconds: delay * retryScale };
}
