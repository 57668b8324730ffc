/** A calendar month in UTC: what monthly features count in, and when they reset. */
export interface Period {
  /** `2026-11`: the month in counter keys. */
  key: string;
  start: Date;
  /** The start of the next month: when the month's counts reset. */
  end: Date;
}

export function monthOf(now: Date): Period {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    key: `${year}-${String(month + 1).padStart(2, '0')}`,
    start: new Date(Date.UTC(year, month, 1)),
    end: new Date(Date.UTC(year, month + 1, 1)),
  };
}

/** Counters of a month are kept a year past it (TTL), for the usage history; never read as current. */
export const monthlyCounterTtl = (period: Period): number => Math.floor(period.end.getTime() / 1000) + 366 * 86_400;
