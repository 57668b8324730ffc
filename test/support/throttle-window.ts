import type { ThrottlePolicy } from '#core/store/throttle-windows';

/**
 * Throttles count in fixed windows of the wall clock (functions/core/store/throttle-windows.ts).
 * A test that makes attempts up to a limit against a real clock first waits out the last
 * `marginSeconds` of the current window, so that its attempts all fall in one.
 */
export async function awayFromWindowEnd({ windowSeconds }: ThrottlePolicy, marginSeconds = 10): Promise<void> {
  const intoWindow = (Date.now() / 1000) % windowSeconds;
  if (intoWindow > windowSeconds - marginSeconds)
    await new Promise((resolve) => setTimeout(resolve, (windowSeconds - intoWindow + 0.5) * 1000));
}
