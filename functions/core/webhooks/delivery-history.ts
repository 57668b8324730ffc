/**
 * How much a delivery keeps of its attempts: the sender and the worker keep to it, and the
 * delivery schemas (delivery-schemas.ts) tell clients, without importing either.
 */

/** How much of a receiver's answer is kept (per attempt, and in a test send's `response_body`). */
export const responseExcerptBytes = 1024;

/** Attempts kept in a delivery's history. */
export const attemptsKept = 10;
