/** The one source of "now", so that tests can move time instead of waiting for it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock): string => clock.now().toISOString();
