import { NotFound, ServiceUnavailable } from '#core/platform/errors';

/**
 * Did a write fail only because its condition did not hold (an item exists already, a
 * state changed under us)? Such failures are answers (409), not faults.
 */
export const isConditionFailure = (error: unknown): boolean =>
  /conditional|TransactionCanceled/i.test(String((error as Error)?.message ?? error));

interface WriteOutcome {
  canceled: boolean;
  /** ElectroDB's reasons for a cancellation, one per item of the transaction. */
  data?: ReadonlyArray<{ code?: string }>;
}

const conflictRetries = 3;

/**
 * Runs a transactional write, turning a cancellation by a condition into a thrown
 * condition failure. A cancellation only because another transaction was writing one of
 * the same items at that moment (two creates in one collection both move its count) is no
 * answer but contention: the write is tried again after a short random pause.
 */
export async function commitOrThrow(write: () => Promise<WriteOutcome>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const result = await write();
    if (!result.canceled) return;
    const codes = (result.data ?? []).map((reason) => reason.code ?? 'None');
    const onlyContention = codes.includes('TransactionConflict') && codes.every((c) => c === 'None' || c === 'TransactionConflict');
    if (!onlyContention) throw Object.assign(new Error('TransactionCanceled'), { reasons: codes });
    // Contention that outlasts the retries is answered 503 with Retry-After: trying again shortly will do.
    if (attempt >= conflictRetries) throw new ServiceUnavailable(1);
    await new Promise((done) => setTimeout(done, 10 + Math.random() * 40 * (attempt + 1)));
  }
}

/**
 * Which items of a cancelled transaction failed their condition, by their position in it:
 * what a create with several conditions (a slug, a limit, a linked item) needs to say which held.
 */
export const failedConditions = (error: unknown): number[] =>
  ((error as { reasons?: string[] })?.reasons ?? []).flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));

/**
 * A transactional read, tried once more if DynamoDB cancels it (a transactional write to
 * one of its items was in flight). A cancelled read is a fault, never "no such item".
 */
export async function readTogether<T>(read: () => Promise<{ canceled: boolean; data: T }>): Promise<T> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await read();
    if (!result.canceled) return result.data;
  }
  throw new ServiceUnavailable(1);
}

/** For `.catch` of a write whose condition may fail because what it removes is gone already. */
export function ignoreConditionFailure(error: unknown): void {
  if (!isConditionFailure(error)) throw error;
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
