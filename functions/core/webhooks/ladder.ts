/**
 * The retry ladder, to the letter of the spec: attempt 1 at once, then 2 after 1 minute,
 * 3 after 5 minutes, 4 after 30 minutes, 5 after 2 hours, 6 (the last) after 24 hours.
 * `retryLadderSeconds[n - 1]` is the delay before attempt n.
 */
export const retryLadderSeconds = [0, 60, 300, 1_800, 7_200, 86_400] as const;

export const maxAttempts = retryLadderSeconds.length;

/** The longest delay SQS can hold a message back (DelaySeconds); a longer wait is a schedule. */
export const maxQueueDelaySeconds = 900;

/** The delay before attempt `attempt` (2 to 6), in seconds; undefined when there is none after the last. */
export const delayBefore = (attempt: number): number | undefined =>
  attempt >= 2 && attempt <= maxAttempts ? retryLadderSeconds[attempt - 1] : undefined;
