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
