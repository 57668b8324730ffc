import { ResourceLocked } from '#core/platform/errors';
import { isConditionFailure } from './conditions.ts';

/** Tries of a change that others' concurrent changes keep overtaking. */
const changeAttempts = 8;

/**
 * A read-change-write whose write holds only if the item is still as read, so that what the
 * change reports (its answer, its event's `data`) is exactly what was written; a concurrent
 * change makes it read and try again. `attempt` lets the first try reuse the caller's read.
 */
export async function changeAsRead<T>(change: (attempt: number) => Promise<T>, busy: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await change(attempt);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (attempt >= changeAttempts) throw new ResourceLocked(busy);
      await new Promise((done) => setTimeout(done, Math.random() * 20 * (attempt + 1)));
    }
  }
}
