import { STATUS_CODES } from 'node:http';
import { delayBefore, maxAttempts } from './ladder.ts';
import type { SendResult } from './sender.ts';

/** Where an attempt leaves its delivery. */
export type AttemptOutcome = { next: 'success' } | { next: 'failed' } | { next: 'retrying'; delaySeconds: number };

/**
 * The state table (docs/webhooks.md, Deliveries and retries): a 2xx succeeds; a 5xx, a timeout
 * or a connection failure is tried again at the ladder's next rung, unless it was the last
 * attempt; anything else fails at once, as a 4xx, a redirect (never followed) or a refused
 * address would only come again.
 */
export function outcomeOf(result: SendResult, attempt: number, retryScale: number): AttemptOutcome {
  const status = result.statusCode;
  if (status !== undefined && status >= 200 && status < 300) return { next: 'success' };
  const retryable = status === undefined ? !result.refused : status >= 500 && status < 600;
  const delay = retryable ? delayBefore(attempt + 1) : undefined;
  return delay === undefined ? { next: 'failed' } : { next: 'retrying', delaySeconds: delay * retryScale };
}

/** "The receiver answered 410 Gone": an answer, in the words a delivery's `error` and a test send's use. */
export const receiverAnswered = (status: number): string =>
  `The receiver answered ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

/**
 * A delivery's `error` after an attempt the receiver answered without a 2xx: what it
 * answered, and what follows (a retry, or the end of the delivery and why). None after a 2xx.
 */
export function answerProblem(status: number, outcome: AttemptOutcome): string | undefined {
  const answered = receiverAnswered(status);
  if (outcome.next === 'success') return undefined;
  if (outcome.next === 'retrying') return `${answered}; the delivery is tried again at next_retry_at.`;
  if (status >= 500 && status < 600) return `${answered} to the last of ${maxAttempts} attempts.`;
  if (status >= 400 && status < 500) return `${answered}; a 4xx ends the delivery without retries.`;
  if (status >= 300 && status < 400) return `${answered}; redirects are not followed, so a 3xx ends the delivery without retries.`;
  return `${answered}; only a 2xx is a success, and no other status is retried.`;
}
