import { ResourceLocked } from '#core/platform/errors';
import { isConditionFailure } from './conditions.ts';

/** Tries of a change that others' concurrent changes keep overtaking. */
const changeAttempts = 8;

/**
 * A read-change-write whose write holds only if the item is still as it was read, so that
 * what the change reports (its answer, its event's `data`) is exactly what was written. A
 * concurrent change fails the condition: the item is read again and the change made anew
 * (an item gone meanwhile is the next read's 404); after a few tries, 409 RESOURCE_LOCKED.
 * `attempt` lets the first try reuse a read the caller made already.
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
