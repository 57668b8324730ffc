import { randomBytes } from 'node:crypto';
import { StateConflict } from '#core/platform/errors';
import { isConditionFailure } from '#core/store/conditions';

/** Tries of a write that others keep changing under it, before the client is told to try again. */
const maxAttempts = 8;

const pause = (attempt: number) => new Promise((done) => setTimeout(done, 5 + Math.random() * 20 * attempt));

/**
 * Runs a read-then-conditional write again while concurrent writes spoil its condition, and
 * past `maxAttempts` answers a 409 that asks to try again, never a 500. `explain` turns a
 * failed condition that is the client's to know (a taken slug, a category gone) into its
 * answer.
 */
export async function whileContended<T>(
  what: string,
  write: (attempt: number) => Promise<T>,
  explain: (error: unknown) => Promise<void> = async () => {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      await explain(error);
      if (attempt >= maxAttempts) {
        throw new StateConflict(`The ${what} was being changed by other requests at the same time; try again.`, 'contended', 'write');
      }
      await pause(attempt);
    }
  }
}

/** A made-up slug's next candidate: the first free one, then (as racing creates keep taking it) one with a random tail. */
export const candidateSlug = (free: string, attempt: number) => (attempt <= 2 ? free : `${free}-${randomBytes(3).toString('hex')}`);
