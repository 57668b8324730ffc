/** `last_used_at` is kept to the minute: at most one write per credential per minute. */
const lastUsedResolutionMs = 60_000;

const lastUsedIsStale = (lastUsedAt: string | undefined, now: Date): boolean =>
  !lastUsedAt || now.getTime() - Date.parse(lastUsedAt) >= lastUsedResolutionMs;

/**
 * Records a use when the stored one is a minute old. The write is conditional on the value
 * still being stale, so concurrent processes do not write it twice; losing that race, or
 * any failure to record, must not fail the request.
 */
export async function recordUse(write: (staleBefore: string) => Promise<unknown>, lastUsedAt: string | undefined, now: Date) {
  if (!lastUsedIsStale(lastUsedAt, now)) return;
  try {
    await write(new Date(now.getTime() - lastUsedResolutionMs).toISOString());
  } catch {
    // Another process recorded it first, or the table is busy: the next minute will do.
  }
}
