import { NotFound } from '../errors.ts';

/**
 * Did a write fail only because its condition did not hold (an item exists already, a
 * state changed under us)? Such failures are answers (409), not faults.
 */
export const isConditionFailure = (error: unknown): boolean =>
  /conditional|TransactionCanceled/i.test(String((error as Error)?.message ?? error));

/** Runs a transactional write, turning a cancellation into a thrown condition failure. */
export async function commitOrThrow(write: () => Promise<{ canceled: boolean }>): Promise<void> {
  const result = await write();
  if (result.canceled) throw new Error('TransactionCanceled');
}

/**
 * A transactional read, tried once more if DynamoDB cancels it (a transactional write to
 * one of its items was in flight). A cancelled read is a fault, never "no such item".
 */
export async function readTogether<T>(read: () => Promise<{ canceled: boolean; data: T }>): Promise<T> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await read();
    if (!result.canceled) return result.data;
  }
  throw new Error('A transactional read was cancelled twice by concurrent writes.');
}

/**
 * A conditional write to an item that must exist (a patch): if it failed only because the
 * item went away since it was read (a delete or the pruner in between), the answer is 404.
 */
export async function goneAsNotFound<T>(resourceType: string, id: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFound(resourceType, id);
    throw error;
  }
}
