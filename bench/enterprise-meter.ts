import { pickShard } from '#core/metering/usage-meter';
import { allowanceOf, rateWindowSeconds } from '#core/platform/rate-limits';

export interface MeterSimulation {
  offeredPerMinute: number;
  allowance: number;
  shards: number;
  admittedPerMinute: number;
  /** Admitted over what could be: the offered load, or the allowance when more is offered. */
  admittedRatio: number;
  /** Conditional writes (admitted or refused; both cost DynamoDB a write) on the busiest item in its busiest second. */
  maxWritesPerItemSecond: number;
}

/**
 * One enterprise key offering `offeredPerMinute` requests for `minutes`, through the meter's
 * own sharding but counted in memory: the rate limit and api_calls are one update, so its write
 * counts are both's.
 */
export function simulateEnterpriseKey(offeredPerMinute: number, minutes = 3): MeterSimulation {
  const { limit, shards, perShard } = allowanceOf('enterprise', 'live');
  const perSecond = offeredPerMinute / 60;
  let admitted = 0;
  let maxWrites = 0;
  let window: number[] = [];
  let refused: boolean[] = [];
  for (let second = 0; second < minutes * 60; second++) {
    if (second % rateWindowSeconds === 0) {
      window = new Array<number>(shards).fill(0);
      refused = new Array<boolean>(shards).fill(false);
    }
    const writes = new Array<number>(shards).fill(0);
    // Whole requests per second, the remainders carried: exactly offeredPerMinute a minute.
    const requests = Math.floor((second + 1) * perSecond) - Math.floor(second * perSecond);
    for (let r = 0; r < requests; r++) {
      const shard = pickShard(shards);
      // A shard refused once is refused again from memory until its window ends (one process).
      if (refused[shard]) continue;
      writes[shard]!++;
      if (window[shard]! < perShard) {
        window[shard]!++;
        admitted++;
      } else refused[shard] = true;
    }
    maxWrites = Math.max(maxWrites, ...writes);
  }
  const admittedPerMinute = admitted / minutes;
  return {
    offeredPerMinute,
    allowance: limit,
    shards,
    admittedPerMinute,
    admittedRatio: admittedPerMinute / Math.min(offeredPerMinute, limit),
    maxWritesPerItemSecond: maxWrites,
  };
}
